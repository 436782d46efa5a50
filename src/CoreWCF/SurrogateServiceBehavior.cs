using System.Collections.ObjectModel;
using System.Reflection;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;
using Surrogate.ServiceModel;

namespace Surrogate.CoreWCF;

/// <summary>
/// The CoreWCF service behavior behind <see cref="CoreWcfSurrogateExtensions.AddDataSetSurrogate"/>:
/// gives every endpoint a <see cref="SurrogateEndpointBehavior"/>, which covers the operations that carry
/// <see cref="DataSetSurrogateAttribute"/> (on the contract interface or on the operation method); on an endpoint
/// without any it only refuses payload requests with the MustUnderstand fault, as a service without the attribute
/// should. Service behaviors run before the endpoints are built, and the endpoint behavior applies before the
/// operations' serializer behaviors do.
/// </summary>
internal sealed class SurrogateServiceBehavior(SurrogateOptions options) : IServiceBehavior
{
    public SurrogateOptions Options => options;

    public void AddBindingParameters(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase, Collection<ServiceEndpoint> endpoints, BindingParameterCollection bindingParameters)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        foreach (ServiceEndpoint endpoint in endpoints)
        {
            if (!endpoint.EndpointBehaviors.Contains(typeof(SurrogateEndpointBehavior)))
            {
                endpoint.EndpointBehaviors.Add(new SurrogateEndpointBehavior(options));
            }
        }
    }

    public void ApplyDispatchBehavior(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
    }

    public void Validate(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
    }
}

/// <summary>
/// One endpoint's half on CoreWCF: sets the shared <see cref="DataSetSurrogateProvider"/> on each covered operation's
/// <see cref="DataContractSerializerOperationBehavior"/> (which applies after it and creates its serializers with it)
/// and adds one <see cref="CoreWcfDispatchInspector"/> with the endpoint's operation table. Applying it again, or for
/// another endpoint of the same contract, keeps the provider already there.
/// </summary>
internal sealed class SurrogateEndpointBehavior(SurrogateOptions options) : IEndpointBehavior
{
    /// <summary>The attribute that covers <paramref name="operation"/>: on its contract interface, else on its method.</summary>
    public static DataSetSurrogateAttribute? AttributeOf(OperationDescription operation)
    {
        ArgumentNullException.ThrowIfNull(operation);
        Type? contract = operation.DeclaringContract?.ContractType;
        MethodInfo? method = operation.TaskMethod ?? operation.SyncMethod ?? operation.BeginMethod;
        return contract?.GetCustomAttribute<DataSetSurrogateAttribute>(inherit: false)
            ?? method?.GetCustomAttribute<DataSetSurrogateAttribute>(inherit: false);
    }

    public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        foreach (OperationDescription operation in endpoint.Contract.Operations)
        {
            Install(operation);
        }
    }

    public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
    {
    }

    public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(endpointDispatcher);
        DispatchRuntime runtime = endpointDispatcher.DispatchRuntime;
        lock (runtime.MessageInspectors.SyncRoot)
        {
            if (runtime.MessageInspectors.OfType<CoreWcfDispatchInspector>().Any())
            {
                return;
            }

            var table = new OperationTable<DataSetSurrogateProvider>(
                endpoint.Contract.Operations.Select(o => new SurrogateOperation(RequestAction(o), o.IsOneWay)));
            foreach (OperationDescription operation in endpoint.Contract.Operations)
            {
                if (Install(operation) is { } provider)
                {
                    table.Cover(RequestAction(operation), provider);
                }
            }

            runtime.MessageInspectors.Add(new CoreWcfDispatchInspector(table));
        }
    }

    public void Validate(ServiceEndpoint endpoint)
    {
    }

    private static string RequestAction(OperationDescription operation) => operation.Messages[0].Action;

    /// <summary>
    /// The provider of an operation with the attribute (installing it on first use), or null for an operation without
    /// it or one formatted by XmlSerializer.
    /// </summary>
    private DataSetSurrogateProvider? Install(OperationDescription operation)
    {
        DataSetSurrogateAttribute? attribute = AttributeOf(operation);
        if (attribute is null
            || !operation.OperationBehaviors.TryGetValue(typeof(DataContractSerializerOperationBehavior), out IOperationBehavior? behavior)
            || behavior is not DataContractSerializerOperationBehavior serializerBehavior)
        {
            return null;
        }

        lock (serializerBehavior)
        {
            switch (serializerBehavior.SerializationSurrogateProvider)
            {
                case null:
                    var provider = new DataSetSurrogateProvider(operation.Name, SurrogateSide.Service, Refuse, options, attribute.MeasureXmlSize);
                    serializerBehavior.SerializationSurrogateProvider = provider;
                    return provider;
                case DataSetSurrogateProvider installed:
                    return installed; // another endpoint of this contract, or a second registration
                default:
                    throw new InvalidOperationException(
                        $"Operation '{operation.Name}' already has the serialization surrogate provider " +
                        $"{serializerBehavior.SerializationSurrogateProvider.GetType()}; [DataSetSurrogate] cannot be combined with it.");
            }
        }
    }

    /// <summary>A refused request payload becomes a CoreWCF fault (code <c>DataSetSurrogate</c>) that the caller receives.</summary>
    private static FaultException Refuse(string message, DataSetSurrogateException error) =>
        new FaultException(new FaultReason(message), new FaultCode(DataSetSurrogateProvider.FaultCodeName), string.Empty);
}
