using System.Buffers;
using System.Data;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;
using System.Xml;
using System.Xml.Schema;
using System.Xml.Serialization;
using Surrogate.Wire;

namespace Surrogate.ServiceModel;

/// <summary>
/// What the DataContractSerializer sees in place of a DataSet or DataTable while the surrogate provider is active.
/// It writes either the codec payload (base64 content under an element marked with <see cref="PayloadAttribute"/>;
/// raw bytes on the binary encoder; see <see cref="PayloadContentWriter"/> for what is held while writing) or, when
/// the peer has not said it can read that, the value's own plain DataSet XML, exactly as the serializer would have
/// written it. It reads both; payload bytes are read from the XML reader straight into the segments of a pooled
/// <see cref="SegmentedBuffer"/>, up to the reading provider's <see cref="SurrogateOptions.MaxTotalBytes"/>, and
/// decoded in place from those segments once the element is complete.
/// </summary>
internal abstract class SurrogatePayload : IXmlSerializable
{
    /// <summary>Namespace of the attribute that marks an element whose content is the codec payload.</summary>
    public const string PayloadNamespace = "urn:datasetsurrogate:payload";

    /// <summary>Local name of the marker attribute; its value is the payload version.</summary>
    public const string PayloadAttribute = "v";

    /// <summary>The payload version the marker carries.</summary>
    internal const string PayloadVersion = "1";

    /// <summary>The prefix the marker's namespace is written with.</summary>
    internal const string PayloadPrefix = "dss";

    // The least room asked of the buffer for each read from the XML reader.
    private const int ReadChunk = 64 * 1024;

    private SegmentedBuffer? _received;
    private TimeSpan _readTime;

    /// <summary>Creates an empty payload; the serializer fills it through <see cref="IXmlSerializable.ReadXml"/>.</summary>
    private protected SurrogatePayload()
    {
    }

    /// <summary>The DataSet or DataTable this payload stands for (null until read).</summary>
    internal object? Value { get; set; }

    /// <summary>The provider of the operation being written, which supplies options and telemetry tags.</summary>
    internal DataSetSurrogateProvider? Writer { get; set; }

    /// <inheritdoc/>
    XmlSchema? IXmlSerializable.GetSchema() => null;

    /// <inheritdoc/>
    void IXmlSerializable.WriteXml(XmlWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        DataSetSurrogateProvider provider = Writer ?? throw new InvalidOperationException("The payload has no provider.");
        object value = Value ?? throw new InvalidOperationException("The payload has no value.");
        using Activity? activity = SurrogateTelemetry.StartActivity(provider.OperationName, SurrogateTelemetry.Send);
        long start = Stopwatch.GetTimestamp();
        if (SurrogateWriteScope.IsActive && TryWriteSurrogate(writer, value, provider, start, activity))
        {
            return;
        }

        ((IXmlSerializable)value).WriteXml(writer);
        long xmlBytes = provider.MeasureXmlSize ? MeasureXml(value) : -1;
        SurrogateTelemetry.Record(provider.OperationName, SurrogateTelemetry.Send, SurrogateTelemetry.XmlFormat,
            xmlBytes, Stopwatch.GetElapsedTime(start), activity);
    }

    /// <inheritdoc/>
    void IXmlSerializable.ReadXml(XmlReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        if (reader.GetAttribute(PayloadAttribute, PayloadNamespace) is null)
        {
            // Plain DataSet XML from a peer without the attribute: the value's own reader takes it.
            long start = Stopwatch.GetTimestamp();
            IXmlSerializable target = CreateTarget();
            target.ReadXml(reader);
            Value = target;
            _readTime = Stopwatch.GetElapsedTime(start);
            return;
        }

        long readStart = Stopwatch.GetTimestamp();
        DataSetSurrogateProvider? provider = SurrogateReadScope.Current;
        long limit = (provider?.Options ?? SurrogateOptions.Default).MaxTotalBytes;
        var received = new SegmentedBuffer();
        try
        {
            if (reader.IsEmptyElement)
            {
                reader.Read();
            }
            else
            {
                reader.ReadStartElement();
                if (!ReadContent(reader, received, limit))
                {
                    var error = new DataSetSurrogateException(
                        $"The payload exceeds a limit: payload bytes is more than {limit}, the limit is {limit} (SurrogateOptions.{nameof(SurrogateOptions.MaxTotalBytes)}).");
                    throw provider?.Refused(error) ?? error;
                }

                reader.ReadEndElement();
            }
        }
        catch
        {
            received.Dispose();
            throw;
        }

        _received = received;
        _readTime = Stopwatch.GetElapsedTime(readStart);
    }

    /// <summary>Turns what was read into the contract's type; the provider's options limit the codec.</summary>
    internal object Complete(DataSetSurrogateProvider provider)
    {
        if (_received is null)
        {
            // Plain XML was read before the operation was known, so it is timed but has no activity of its own.
            SurrogateTelemetry.Record(provider.OperationName, SurrogateTelemetry.Receive, SurrogateTelemetry.XmlFormat,
                -1, _readTime, activity: null);
            return Value ?? throw new InvalidOperationException("The payload was not read.");
        }

        using SegmentedBuffer received = _received;
        _received = null;
        using Activity? activity = SurrogateTelemetry.StartActivity(provider.OperationName, SurrogateTelemetry.Receive);
        long start = Stopwatch.GetTimestamp();
        try
        {
            object value = Decode(received.AsSequence(), provider.Options);
            SurrogateTelemetry.Record(provider.OperationName, SurrogateTelemetry.Receive, SurrogateTelemetry.SurrogateFormat,
                received.Length, _readTime + Stopwatch.GetElapsedTime(start), activity); // chunked read + codec
            return value;
        }
        catch (DataSetSurrogateException ex)
        {
            activity?.SetStatus(ActivityStatusCode.Error, ex.Message);
            throw provider.Refused(ex);
        }
    }

    /// <summary>Creates an empty instance of the contract's type.</summary>
    private protected abstract IXmlSerializable CreateTarget();

    /// <summary>Writes <paramref name="value"/> with the codec to <paramref name="output"/>, piece by piece.</summary>
    private static void Encode(IBufferWriter<byte> output, object value, SurrogateOptions options)
    {
        if (value is DataSet dataSet)
        {
            DataSetSerializer.Serialize(output, dataSet, options);
        }
        else
        {
            DataSetSerializer.Serialize(output, (DataTable)value, options);
        }
    }

    /// <summary>
    /// Writes the schema of <paramref name="value"/> (a copy without rows) nowhere, so whatever the codec refuses in a
    /// schema (column types, extended properties) is found before any of the value is written.
    /// </summary>
    private static void CheckSchema(object value, SurrogateOptions options)
    {
        if (value is DataSet dataSet)
        {
            using DataSet schema = dataSet.Clone();
            DataSetSerializer.Serialize(Stream.Null, schema, options);
        }
        else
        {
            using DataTable schema = ((DataTable)value).Clone();
            DataSetSerializer.Serialize(Stream.Null, schema, options);
        }
    }

    /// <summary>Creates the contract's type and loads the payload into it.</summary>
    private object Decode(in ReadOnlySequence<byte> payload, SurrogateOptions options)
    {
        IXmlSerializable target = CreateTarget();
        if (target is DataSet dataSet)
        {
            DataSetSerializer.DeserializeInto(payload, dataSet, options);
        }
        else
        {
            DataSetSerializer.DeserializeInto(payload, (DataTable)target, options);
        }

        return target;
    }

    private static bool TryWriteSurrogate(XmlWriter writer, object value, DataSetSurrogateProvider provider, long start, Activity? activity)
    {
        using var output = new PayloadContentWriter(writer, () => CheckSchema(value, provider.Options));
        try
        {
            Encode(output, value, provider.Options);
            output.Complete();
        }
        catch (Exception) when (output.WriterFailure is { } failure)
        {
            // The transport under the writer failed, and the codec may have wrapped that: report the real cause.
            ExceptionDispatchInfo.Throw(failure);
            throw;
        }
        catch (DataSetSurrogateException ex) when (!output.WroteToWriter)
        {
            // Nothing is written yet, and every reader with the attribute also reads plain XML: fall back to it.
            activity?.AddEvent(new ActivityEvent("fallback", tags: new ActivityTagsCollection { ["reason"] = ex.Message }));
            SurrogateTelemetry.RecordFallback(provider.OperationName);
            return false;
        }

        SurrogateTelemetry.Record(provider.OperationName, SurrogateTelemetry.Send, SurrogateTelemetry.SurrogateFormat,
            output.Length, Stopwatch.GetElapsedTime(start), activity);
        if (provider.MeasureXmlSize)
        {
            SurrogateTelemetry.RecordXmlSize(provider.OperationName, SurrogateTelemetry.Send, MeasureXml(value));
        }

        return true;
    }

    /// <summary>
    /// Reads the base64 (or, on the binary encoder, raw bytes) content of the reader's current element, up to its end,
    /// into <paramref name="received"/>'s segments. Chunked reads keep ReaderQuotas.MaxArrayLength out of play (no
    /// single array is requested), and each asks for no more than one byte past <paramref name="limit"/>, so an oversized
    /// value is refused as soon as it passes the limit, without reading or holding the rest. False when the content is
    /// longer than <paramref name="limit"/>.
    /// </summary>
    private static bool ReadContent(XmlReader reader, SegmentedBuffer received, long limit)
    {
        int read;
        do
        {
            bool isArray = MemoryMarshal.TryGetArray<byte>(received.GetMemory(ReadChunk), out ArraySegment<byte> free);
            Debug.Assert(isArray, "SegmentedBuffer holds arrays.");
            read = reader.ReadContentAsBase64(free.Array!, free.Offset, (int)Math.Min(free.Count, limit - received.Length + 1));
            received.Advance(read);
            if (received.Length > limit)
            {
                return false;
            }
        }
        while (read > 0);
        return true;
    }

    /// <summary>Diagnostic mode: the UTF-8 text size of the value's plain DataSet XML (costs a second write).</summary>
    private static long MeasureXml(object value)
    {
        using var counter = new CountingStream();
        using (XmlWriter xml = XmlWriter.Create(counter, new XmlWriterSettings { CloseOutput = false }))
        {
            xml.WriteStartElement("value");
            ((IXmlSerializable)value).WriteXml(xml);
            xml.WriteEndElement();
        }

        return counter.Length;
    }
}

/// <summary>Stands for a <see cref="DataSet"/> (or typed DataSet <typeparamref name="T"/>) on the wire.</summary>
/// <typeparam name="T">The contract's declared type; it decides what comes out on the receiving side.</typeparam>
internal sealed class DataSetPayload<T> : SurrogatePayload
    where T : DataSet, new()
{
    private protected override IXmlSerializable CreateTarget() => new T();
}

/// <summary>Stands for a <see cref="DataTable"/> (or typed table <typeparamref name="T"/>) on the wire.</summary>
/// <typeparam name="T">The contract's declared type; it decides what comes out on the receiving side.</typeparam>
internal sealed class DataTablePayload<T> : SurrogatePayload
    where T : DataTable, new()
{
    private protected override IXmlSerializable CreateTarget() => new T();
}
