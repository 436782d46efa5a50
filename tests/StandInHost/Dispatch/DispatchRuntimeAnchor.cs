using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.StandInHost.Dispatch;

/// <summary>
/// Obtains a real, still mutable <see cref="ClientRuntime"/> (and with it a <see cref="DispatchRuntime"/>) from the
/// client package's public API.
/// </summary>
/// <remarks>
/// The reference surface has no public constructor for any dispatcher type. Opening a <see cref="ChannelFactory{T}"/>
/// runs the endpoint behaviors' <c>ApplyClientBehavior</c> with the factory's fresh runtime; an endpoint behavior
/// runs the caller's build there, while the runtime still accepts changes. Opening a factory makes no connection.
/// </remarks>
internal static class DispatchRuntimeAnchor
{
    /// <summary>Runs <paramref name="build"/> with a fresh client runtime, once.</summary>
    public static void Run(Action<ClientRuntime> build)
    {
        var factory = new ChannelFactory<IAnchorContract>(new BasicHttpBinding(), new EndpointAddress("http://127.0.0.1/anchor"));
        factory.Endpoint.EndpointBehaviors.Add(new BuildBehavior(build));
        try
        {
            factory.Open();
        }
        finally
        {
            factory.Abort();
        }
    }

    /// <summary>The contract of the anchor factory; never called.</summary>
    [ServiceContract]
    internal interface IAnchorContract
    {
        /// <summary>Never called.</summary>
        [OperationContract]
        void Anchor();
    }

    private sealed class BuildBehavior(Action<ClientRuntime> build) : IEndpointBehavior
    {
        public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
        {
        }

        public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime) => build(clientRuntime);

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
        {
        }

        public void Validate(ServiceEndpoint endpoint)
        {
        }
    }
}
