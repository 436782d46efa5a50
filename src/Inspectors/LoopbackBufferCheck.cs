using System.Runtime.CompilerServices;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel;

/// <summary>
/// The loopback stall warning (<see cref="SurrogateEventSource.SmallConnectionBufferOnLoopback"/>), once per client
/// endpoint whatever the attribute's placement. Only a contract behavior is handed the endpoint (address and binding),
/// so an attribute on operations alone adds this one to the contract while binding parameters are gathered, which
/// the client does before it applies any behavior.
/// </summary>
internal sealed class LoopbackBufferCheck : IContractBehavior
{
    private static readonly ConditionalWeakTable<ServiceEndpoint, object> Checked = new();
    private static readonly object Seen = new();

    /// <summary>Makes sure <paramref name="contract"/> has the check (an operation attribute's part).</summary>
    public static void AddTo(ContractDescription contract)
    {
        lock (contract.ContractBehaviors)
        {
            if (!contract.ContractBehaviors.Contains(typeof(LoopbackBufferCheck)))
            {
                contract.ContractBehaviors.Add(new LoopbackBufferCheck());
            }
        }
    }

    /// <summary>Warns when <paramref name="endpoint"/> is a stalling one and was not checked before.</summary>
    public static void WarnOnce(ServiceEndpoint? endpoint)
    {
        if (endpoint is not null && Checked.TryAdd(endpoint, Seen)
            && SurrogateBindings.StallingConnectionBuffer(endpoint) is { } bufferSize)
        {
            SurrogateEventSource.Log.SmallConnectionBufferOnLoopback(endpoint.Address.Uri.ToString(), bufferSize);
        }
    }

    public void AddBindingParameters(ContractDescription contractDescription, ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
    {
    }

    public void ApplyClientBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, ClientRuntime clientRuntime) =>
        WarnOnce(endpoint);

    public void ApplyDispatchBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, DispatchRuntime dispatchRuntime)
    {
    }

    public void Validate(ContractDescription contractDescription, ServiceEndpoint endpoint)
    {
    }
}
