using System.Collections.Concurrent;
using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;

namespace Surrogate.ServiceModel;

/// <summary>Which end of a call a provider serves; it decides how a refused payload is reported.</summary>
public enum SurrogateSide
{
    /// <summary>Not known (the provider was installed before the client or dispatch runtime was built).</summary>
    Unknown,

    /// <summary>The calling side: a refused reply surfaces as a <see cref="CommunicationException"/>.</summary>
    Client,

    /// <summary>The service side: a refused request becomes a <see cref="FaultException"/> sent to the caller.</summary>
    Service,
}

/// <summary>
/// The DataContractSerializer surrogate provider behind <see cref="DataSetSurrogateAttribute"/>: wherever the
/// serializer meets a <see cref="DataSet"/> or <see cref="DataTable"/> (or a typed subclass with a parameterless
/// constructor) it substitutes a <see cref="SurrogatePayload"/>. The same class serves client and service.
/// </summary>
public sealed class DataSetSurrogateProvider : ISerializationSurrogateProvider
{
    private static readonly ConcurrentDictionary<Type, Type> SurrogateTypes = new();

    /// <summary>Creates a provider for one operation.</summary>
    /// <param name="operationName">The operation's name, used as the <c>operation</c> tag of every measurement.</param>
    /// <param name="side">Which end of the call this provider serves.</param>
    /// <param name="options">Codec limits; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="measureXmlSize">Diagnostic mode: also measure the plain XML size of every value written.</param>
    public DataSetSurrogateProvider(string operationName, SurrogateSide side, SurrogateOptions? options = null, bool measureXmlSize = false)
    {
        ArgumentException.ThrowIfNullOrEmpty(operationName);
        OperationName = operationName;
        Side = side;
        Options = options ?? SurrogateOptions.Default;
        MeasureXmlSize = measureXmlSize;
    }

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
    internal Exception Refused(DataSetSurrogateException error)
    {
        string message = $"DataSetSurrogate refused the DataSet payload of operation '{OperationName}': {error.Message}";
        return Side == SurrogateSide.Client
            ? new CommunicationException(message, error)
            : new FaultException(new FaultReason(message), new FaultCode("DataSetSurrogate"), string.Empty);
    }

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
