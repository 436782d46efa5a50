using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel;

/// <summary>
/// Makes DataSets and DataTables travel as the compact DataSetSurrogate payload. Put it on a service contract
/// interface (every operation) or on one operation; the same contract serves client and service. Each end falls
/// back to plain DataSet XML until the other end has said it reads the payload (see <see cref="SurrogateNegotiation"/>).
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
        foreach (OperationDescription operation in contractDescription.Operations)
        {
            Install(operation, SurrogateSide.Client);
        }

        AddInspector(clientRuntime);
    }

    /// <inheritdoc/>
    public void ApplyDispatchBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, DispatchRuntime dispatchRuntime)
    {
        ArgumentNullException.ThrowIfNull(contractDescription);
        ArgumentNullException.ThrowIfNull(dispatchRuntime);
        foreach (OperationDescription operation in contractDescription.Operations)
        {
            Install(operation, SurrogateSide.Service);
        }

        AddInspector(dispatchRuntime);
    }

    /// <inheritdoc/>
    public void Validate(ContractDescription contractDescription, ServiceEndpoint endpoint)
    {
    }

    /// <inheritdoc/>
    public void AddBindingParameters(OperationDescription operationDescription, BindingParameterCollection bindingParameters) =>
        Install(operationDescription, SurrogateSide.Unknown);

    /// <inheritdoc/>
    public void ApplyClientBehavior(OperationDescription operationDescription, ClientOperation clientOperation)
    {
        ArgumentNullException.ThrowIfNull(clientOperation);
        Install(operationDescription, SurrogateSide.Client);
        AddInspector(clientOperation.Parent);
    }

    /// <inheritdoc/>
    public void ApplyDispatchBehavior(OperationDescription operationDescription, DispatchOperation dispatchOperation)
    {
        ArgumentNullException.ThrowIfNull(dispatchOperation);
        Install(operationDescription, SurrogateSide.Service);
        AddInspector(dispatchOperation.Parent);
    }

    /// <inheritdoc/>
    public void Validate(OperationDescription operationDescription)
    {
    }

    /// <summary>
    /// Sets the provider on the operation's DataContractSerializerOperationBehavior, which applies after this
    /// behavior and creates its serializers with it. Operations formatted by XmlSerializer are left alone.
    /// </summary>
    private void Install(OperationDescription operation, SurrogateSide side)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var serializerBehavior = operation.Behaviors.Find<DataContractSerializerOperationBehavior>();
        if (serializerBehavior is null)
        {
            return;
        }

        switch (serializerBehavior.SerializationSurrogateProvider)
        {
            case null:
                break;
            case DataSetSurrogateProvider installed when side == SurrogateSide.Unknown || installed.Side == side:
                return; // applied before for another endpoint of this contract: nothing to add
            case DataSetSurrogateProvider:
                break;
            default:
                throw new InvalidOperationException(
                    $"Operation '{operation.Name}' already has the serialization surrogate provider " +
                    $"{serializerBehavior.SerializationSurrogateProvider.GetType()}; [DataSetSurrogate] cannot be combined with it.");
        }

        serializerBehavior.SerializationSurrogateProvider = new DataSetSurrogateProvider(operation.Name, side, Options, MeasureXmlSize);
    }

    private static void AddInspector(ClientRuntime runtime)
    {
        if (!runtime.ClientMessageInspectors.OfType<SurrogateClientInspector>().Any())
        {
            runtime.ClientMessageInspectors.Add(new SurrogateClientInspector());
        }
    }

    private static void AddInspector(DispatchRuntime runtime)
    {
        lock (runtime.MessageInspectors.SyncRoot)
        {
            if (!runtime.MessageInspectors.OfType<SurrogateDispatchInspector>().Any())
            {
                runtime.MessageInspectors.Add(new SurrogateDispatchInspector());
            }
        }
    }
}
