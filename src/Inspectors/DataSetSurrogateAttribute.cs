using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel;

/// <summary>
/// Makes DataSets and DataTables travel as the compact DataSetSurrogate payload. Put it on a service contract
/// interface (every operation) or on single operations; the same contract serves client and service. Negotiation is
/// per operation: a DataSet travels as the payload only for an operation both ends have the attribute on, once the
/// other end has said so; everything else is plain DataSet XML (see <see cref="SurrogateNegotiation"/>).
/// </summary>
[AttributeUsage(AttributeTargets.Interface | AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
public sealed class DataSetSurrogateAttribute : Attribute, IContractBehavior, IOperationBehavior
{
    /// <summary>
    /// Diagnostic mode: also measure the size each written value would have as plain DataSet XML
    /// (<see cref="SurrogateTelemetry.PayloadSizeInstrument"/> with format <c>xml</c>). It costs a second write.
    /// </summary>
    public bool MeasureXmlSize { get; set; }

    /// <summary>Codec limits for this contract or operation; <see cref="SurrogateOptions.Default"/> when null.</summary>
    public SurrogateOptions? Options { get; set; }

    /// <inheritdoc/>
    public void AddBindingParameters(ContractDescription contractDescription, ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
    {
        ArgumentNullException.ThrowIfNull(contractDescription);
        foreach (OperationDescription operation in contractDescription.Operations)
        {
            Install(operation, SurrogateSide.Unknown);
        }
    }

    /// <inheritdoc/>
    public void ApplyClientBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, ClientRuntime clientRuntime)
    {
        ArgumentNullException.ThrowIfNull(contractDescription);
        ArgumentNullException.ThrowIfNull(clientRuntime);
        LoopbackBufferCheck.WarnOnce(endpoint);
        OperationTable<DataSetSurrogateProvider> table = ClientInspectorFor(clientRuntime, contractDescription).Operations;
        foreach (OperationDescription operation in contractDescription.Operations)
        {
            Cover(table, operation, Install(operation, SurrogateSide.Client));
        }
    }

    /// <inheritdoc/>
    public void ApplyDispatchBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, DispatchRuntime dispatchRuntime)
    {
        ArgumentNullException.ThrowIfNull(contractDescription);
        ArgumentNullException.ThrowIfNull(dispatchRuntime);
        OperationTable<DataSetSurrogateProvider> table = DispatchInspectorFor(dispatchRuntime, contractDescription).Operations;
        foreach (OperationDescription operation in contractDescription.Operations)
        {
            Cover(table, operation, Install(operation, SurrogateSide.Service));
        }
    }

    /// <inheritdoc/>
    public void Validate(ContractDescription contractDescription, ServiceEndpoint endpoint)
    {
    }

    /// <inheritdoc/>
    public void AddBindingParameters(OperationDescription operationDescription, BindingParameterCollection bindingParameters)
    {
        Install(operationDescription, SurrogateSide.Unknown);
        LoopbackBufferCheck.AddTo(operationDescription.DeclaringContract); // an operation behavior never sees the endpoint
    }

    /// <inheritdoc/>
    public void ApplyClientBehavior(OperationDescription operationDescription, ClientOperation clientOperation)
    {
        ArgumentNullException.ThrowIfNull(operationDescription);
        ArgumentNullException.ThrowIfNull(clientOperation);
        OperationTable<DataSetSurrogateProvider> table = ClientInspectorFor(clientOperation.Parent, operationDescription.DeclaringContract).Operations;
        Cover(table, operationDescription, Install(operationDescription, SurrogateSide.Client));
    }

    /// <inheritdoc/>
    public void ApplyDispatchBehavior(OperationDescription operationDescription, DispatchOperation dispatchOperation)
    {
        ArgumentNullException.ThrowIfNull(operationDescription);
        ArgumentNullException.ThrowIfNull(dispatchOperation);
        OperationTable<DataSetSurrogateProvider> table = DispatchInspectorFor(dispatchOperation.Parent, operationDescription.DeclaringContract).Operations;
        Cover(table, operationDescription, Install(operationDescription, SurrogateSide.Service));
    }

    /// <inheritdoc/>
    public void Validate(OperationDescription operationDescription)
    {
    }

    /// <summary>
    /// Sets the provider on the operation's DataContractSerializerOperationBehavior, which applies after this
    /// behavior and creates its serializers with it; returns the operation's provider. Operations formatted by
    /// XmlSerializer are left alone (null).
    /// </summary>
    private DataSetSurrogateProvider? Install(OperationDescription operation, SurrogateSide side)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var serializerBehavior = operation.Behaviors.Find<DataContractSerializerOperationBehavior>();
        if (serializerBehavior is null)
        {
            return null;
        }

        switch (serializerBehavior.SerializationSurrogateProvider)
        {
            case null:
                break;
            case DataSetSurrogateProvider installed when side == SurrogateSide.Unknown || installed.Side == side:
                return installed; // applied before for another endpoint of this contract: nothing to add
            case DataSetSurrogateProvider:
                break;
            default:
                throw new InvalidOperationException(
                    $"Operation '{operation.Name}' already has the serialization surrogate provider " +
                    $"{serializerBehavior.SerializationSurrogateProvider.GetType()}; [DataSetSurrogate] cannot be combined with it.");
        }

        var provider = new DataSetSurrogateProvider(operation.Name, side, Options, MeasureXmlSize);
        serializerBehavior.SerializationSurrogateProvider = provider;
        return provider;
    }

    /// <summary>Records in the runtime's table that this end reads and writes the payload for the operation.</summary>
    private static void Cover(OperationTable<DataSetSurrogateProvider> table, OperationDescription operation, DataSetSurrogateProvider? provider)
    {
        if (provider is not null)
        {
            table.Cover(RequestAction(operation), provider);
        }
    }

    private static string RequestAction(OperationDescription operation) => operation.Messages[0].Action;

    private static OperationTable<DataSetSurrogateProvider> NewTable(ContractDescription contract) =>
        new(contract.Operations.Select(o => new SurrogateOperation(RequestAction(o), o.IsOneWay)));

    private static SurrogateClientInspector ClientInspectorFor(ClientRuntime runtime, ContractDescription contract)
    {
        lock (runtime.ClientMessageInspectors)
        {
            SurrogateClientInspector? inspector = runtime.ClientMessageInspectors.OfType<SurrogateClientInspector>().FirstOrDefault();
            if (inspector is null)
            {
                inspector = new SurrogateClientInspector(NewTable(contract));
                runtime.ClientMessageInspectors.Add(inspector);
            }

            return inspector;
        }
    }

    private static SurrogateDispatchInspector DispatchInspectorFor(DispatchRuntime runtime, ContractDescription contract)
    {
        lock (runtime.MessageInspectors.SyncRoot)
        {
            SurrogateDispatchInspector? inspector = runtime.MessageInspectors.OfType<SurrogateDispatchInspector>().FirstOrDefault();
            if (inspector is null)
            {
                inspector = new SurrogateDispatchInspector(NewTable(contract));
                runtime.MessageInspectors.Add(inspector);
            }

            return inspector;
        }
    }
}
