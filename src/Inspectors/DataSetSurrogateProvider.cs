using System.Collections.Concurrent;
using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;

namespace Surrogate.ServiceModel;

/// <summary>Which end of a call a provider serves; it decides how a refused payload is reported.</summary>
internal enum SurrogateSide
{
    /// <summary>Not known (the provider was installed before the client or dispatch runtime was built).</summary>
    Unknown,

    /// <summary>The calling side: a refused reply surfaces as a <see cref="CommunicationException"/>.</summary>
    Client,

    /// <summary>The service side: a refused request becomes a <see cref="FaultException"/> sent to the caller.</summary>
    Service,
}

/// <summary>
/// Makes the exception the caller of the reading end sees when the codec refuses a payload it received: each host
/// (System.ServiceModel here, CoreWCF in its adapter) and side has its own exception types.
/// </summary>
/// <param name="message">What was refused, naming the operation.</param>
/// <param name="error">The codec's exception.</param>
internal delegate Exception PayloadRefusal(string message, DataSetSurrogateException error);

/// <summary>
/// The DataContractSerializer surrogate provider behind <see cref="DataSetSurrogateAttribute"/>: wherever the
/// serializer meets a <see cref="DataSet"/> or <see cref="DataTable"/> (or a typed subclass with a parameterless
/// constructor) it substitutes a <see cref="SurrogatePayload"/>. The same class serves client and service.
/// </summary>
internal sealed class DataSetSurrogateProvider : ISerializationSurrogateProvider
{
    private static readonly ConcurrentDictionary<Type, Type> SurrogateTypes = new();
    private readonly PayloadRefusal _refusal;

    /// <summary>Creates a provider for one operation of a System.ServiceModel client or service.</summary>
    /// <param name="operationName">The operation's name, used as the <c>operation</c> tag of every measurement.</param>
    /// <param name="side">Which end of the call this provider serves.</param>
    /// <param name="options">Codec limits; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="measureXmlSize">Diagnostic mode: also measure the plain XML size of every value written.</param>
    public DataSetSurrogateProvider(string operationName, SurrogateSide side, SurrogateOptions? options = null, bool measureXmlSize = false)
        : this(operationName, side, ServiceModelRefusal(side), options, measureXmlSize)
    {
    }

    /// <summary>Creates a provider whose refusals are reported by <paramref name="refusal"/> (another host's exception types).</summary>
    internal DataSetSurrogateProvider(string operationName, SurrogateSide side, PayloadRefusal refusal, SurrogateOptions? options, bool measureXmlSize)
    {
        ArgumentException.ThrowIfNullOrEmpty(operationName);
        OperationName = operationName;
        Side = side;
        _refusal = refusal;
        Options = options ?? SurrogateOptions.Default;
        MeasureXmlSize = measureXmlSize;
    }

    /// <summary>The code of the fault a service sends for a payload it refused (on every host).</summary>
    internal const string FaultCodeName = "DataSetSurrogate";

    /// <summary>The operation this provider serves.</summary>
    public string OperationName { get; }

    /// <summary>Which end of the call this provider serves.</summary>
    public SurrogateSide Side { get; }

    /// <summary>The codec limits applied when reading and writing payloads.</summary>
    public SurrogateOptions Options { get; }

    /// <summary>Whether every written value's plain XML size is measured too (a second, text-only write).</summary>
    public bool MeasureXmlSize { get; }

    /// <inheritdoc/>
    public Type GetSurrogateType(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        return SurrogateTypes.GetOrAdd(type, static t => SurrogateTypeFor(t) ?? t);
    }

    /// <inheritdoc/>
    public object GetObjectToSerialize(object obj, Type targetType)
    {
        // Only where the declared type was substituted; a DataSet held by an 'object' member stays plain XML.
        if (obj is not (DataSet or DataTable) || !typeof(SurrogatePayload).IsAssignableFrom(targetType))
        {
            return obj;
        }

        var payload = (SurrogatePayload)Activator.CreateInstance(targetType)!;
        payload.Value = obj;
        payload.Writer = this;
        return payload;
    }

    /// <inheritdoc/>
    public object GetDeserializedObject(object obj, Type targetType) =>
        obj is SurrogatePayload payload ? payload.Complete(this) : obj;

    /// <summary>The exception a caller sees when the codec refuses a payload this provider received.</summary>
    internal Exception Refused(DataSetSurrogateException error) =>
        _refusal($"DataSetSurrogate refused the DataSet payload of operation '{OperationName}': {error.Message}", error);

    /// <summary>
    /// System.ServiceModel's: the client's call fails with a <see cref="CommunicationException"/>; the service's refusal
    /// is a <see cref="FaultException"/> (code <c>DataSetSurrogate</c>) that the caller receives.
    /// </summary>
    private static PayloadRefusal ServiceModelRefusal(SurrogateSide side) => side == SurrogateSide.Client
        ? static (message, error) => new CommunicationException(message, error)
        : static (message, _) => new FaultException(new FaultReason(message), new FaultCode(FaultCodeName), string.Empty);

    private static Type? SurrogateTypeFor(Type type)
    {
        if (type.IsAbstract || type.ContainsGenericParameters || type.GetConstructor(Type.EmptyTypes) is null)
        {
            return null;
        }

        if (typeof(DataSet).IsAssignableFrom(type))
        {
            return typeof(DataSetPayload<>).MakeGenericType(type);
        }

        return typeof(DataTable).IsAssignableFrom(type) ? typeof(DataTablePayload<>).MakeGenericType(type) : null;
    }
}
