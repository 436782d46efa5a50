using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel.Tests;

/// <summary>Captures the client runtime a factory builds; optionally applies the attribute to it once more.</summary>
internal sealed class RuntimeCapture(DataSetSurrogateAttribute? applyAgain = null) : IEndpointBehavior
{
    public ClientRuntime? Runtime { get; private set; }

    public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
    {
    }

    public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
    {
        Runtime = clientRuntime;
        applyAgain?.ApplyClientBehavior(endpoint.Contract, endpoint, clientRuntime);
    }

    public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
    {
    }

    public void Validate(ServiceEndpoint endpoint)
    {
    }
}
