using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace Surrogate.ServiceModel;

/// <summary>
/// The names under which <see cref="DataSetSurrogateAttribute"/> publishes its measurements: one
/// <see cref="Meter"/> and one <see cref="ActivitySource"/>, both called <c>DataSetSurrogate</c>, so
/// <c>dotnet-counters</c> and OpenTelemetry pick them up by name.
/// </summary>
public static class SurrogateTelemetry
{
    /// <summary>The name of the meter and of the activity source.</summary>
    public const string Name = "DataSetSurrogate";

    /// <summary>Histogram (By): bytes of one DataSet or DataTable value, per operation, direction and format.</summary>
    public const string PayloadSizeInstrument = "datasetsurrogate.payload.size";

    /// <summary>Histogram (s): time to write one value into the message body.</summary>
    public const string SerializeDurationInstrument = "datasetsurrogate.serialize.duration";

    /// <summary>Histogram (s): time to read one value from the message body.</summary>
    public const string DeserializeDurationInstrument = "datasetsurrogate.deserialize.duration";

    /// <summary>Counter ({value}): values written or read, per operation, direction and format.</summary>
    public const string ValuesInstrument = "datasetsurrogate.values";

    /// <summary>Counter ({value}): values the codec refused to write, which were sent as plain DataSet XML instead.</summary>
    public const string FallbacksInstrument = "datasetsurrogate.fallbacks";

    /// <summary>Tag: the operation name of the contract.</summary>
    public const string OperationTag = "operation";

    /// <summary>Tag: <c>send</c> (written into an outgoing message) or <c>receive</c>.</summary>
    public const string DirectionTag = "direction";

    /// <summary>Tag: <c>surrogate</c> (the codec payload) or <c>xml</c> (plain DataSet XML).</summary>
    public const string FormatTag = "format";

    /// <summary>Value of <see cref="FormatTag"/> for the codec payload.</summary>
    public const string SurrogateFormat = "surrogate";

    /// <summary>Value of <see cref="FormatTag"/> for plain DataSet XML (schema and diffgram).</summary>
    public const string XmlFormat = "xml";

    internal const string Send = "send";
    internal const string Receive = "receive";

    internal static readonly ActivitySource Source = new(Name);
    private static readonly Meter Meter = new(Name);

    private static readonly Histogram<long> PayloadSize = Meter.CreateHistogram<long>(
        PayloadSizeInstrument, "By", "Bytes of one DataSet or DataTable value in a message body.");
    private static readonly Histogram<double> SerializeDuration = Meter.CreateHistogram<double>(
        SerializeDurationInstrument, "s", "Time to write one DataSet or DataTable value into a message body.");
    private static readonly Histogram<double> DeserializeDuration = Meter.CreateHistogram<double>(
        DeserializeDurationInstrument, "s", "Time to read one DataSet or DataTable value from a message body.");
    private static readonly Counter<long> Values = Meter.CreateCounter<long>(
        ValuesInstrument, "{value}", "DataSet or DataTable values written or read.");
    private static readonly Counter<long> Fallbacks = Meter.CreateCounter<long>(
        FallbacksInstrument, "{value}", "Values the codec refused to write, sent as plain DataSet XML instead.");

    internal static Activity? StartActivity(string operation, string direction) =>
        Source.StartActivity(direction == Send ? "DataSetSurrogate.Serialize" : "DataSetSurrogate.Deserialize")
            ?.SetTag(OperationTag, operation);

    /// <summary>Records one value written or read; <paramref name="bytes"/> is negative when it was not measured.</summary>
    internal static void Record(string operation, string direction, string format, long bytes, TimeSpan elapsed, Activity? activity)
    {
        var tags = new TagList
        {
            { OperationTag, operation },
            { DirectionTag, direction },
            { FormatTag, format },
        };
        Values.Add(1, tags);
        (direction == Send ? SerializeDuration : DeserializeDuration).Record(elapsed.TotalSeconds, tags);
        if (bytes >= 0)
        {
            PayloadSize.Record(bytes, tags);
        }

        if (activity is not null)
        {
            activity.SetTag(DirectionTag, direction).SetTag(FormatTag, format);
            if (bytes >= 0)
            {
                activity.SetTag("bytes", bytes);
            }
        }
    }

    /// <summary>Records the size plain DataSet XML would have had (diagnostic mode only).</summary>
    internal static void RecordXmlSize(string operation, string direction, long bytes) =>
        PayloadSize.Record(bytes, new TagList
        {
            { OperationTag, operation },
            { DirectionTag, direction },
            { FormatTag, XmlFormat },
        });

    internal static void RecordFallback(string operation) =>
        Fallbacks.Add(1, new KeyValuePair<string, object?>(OperationTag, operation));
}
