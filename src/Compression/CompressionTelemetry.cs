using System.Diagnostics.Metrics;

namespace Surrogate.Compression;

/// <summary>
/// The names under which the compressing encoders publish their measurements: one <see cref="Meter"/> called
/// <c>DataSetSurrogate.Compression</c>, so <c>dotnet-counters</c> and OpenTelemetry pick it up by name. Every
/// instrument costs nothing while no listener is attached.
/// </summary>
public static class CompressionTelemetry
{
    /// <summary>The name of the meter.</summary>
    public const string MeterName = "DataSetSurrogate.Compression";

    /// <summary>Counter ({message}): messages sent and received, per action, direction, codec, level and (sent) reason.</summary>
    public const string MessagesInstrument = "datasetsurrogate.compression.messages";

    /// <summary>Counter (By): bytes before compression (<c>stage</c> original) and in the frame (<c>stage</c> wire), per action and direction.</summary>
    public const string BytesInstrument = "datasetsurrogate.compression.bytes";

    /// <summary>Histogram (1): compressed ÷ original of each compressed message sent, per action, codec and level.</summary>
    public const string RatioInstrument = "datasetsurrogate.compression.ratio";

    /// <summary>Gauge (1): the adaptive policy's ratio estimate for an action's messages of one size class, per codec and level, after each message it measured.</summary>
    public const string EstimatedRatioInstrument = "datasetsurrogate.compression.estimated_ratio";

    /// <summary>Gauge (By/s): the adaptive policy's compression speed estimate, as <see cref="EstimatedRatioInstrument"/>.</summary>
    public const string EstimatedSpeedInstrument = "datasetsurrogate.compression.estimated_speed";

    /// <summary>Gauge (By/s): the adaptive policy's decompression speed estimate per codec, after each compressed message received.</summary>
    public const string DecodeSpeedInstrument = "datasetsurrogate.compression.decode_speed";

    /// <summary>Gauge (By/s): the link rate the adaptive policy assumes, per <c>source</c> (prior, round_trip, blocked_writes, send_rate, cpu_bound), at each decision.</summary>
    public const string LinkRateInstrument = "datasetsurrogate.compression.link_rate";

    /// <summary>Counter ({change}): changes of link the adaptive policy's round-trip fit detected; each drops what it knew of the link and explores for the next messages.</summary>
    public const string LinkChangesInstrument = "datasetsurrogate.compression.link_changes";

    /// <summary>Gauge (1): this process's CPU use (share of all cores) as the adaptive and 2011 policies measure it, and the adaptive policy's CPU guard cap (<see cref="CapTag"/>).</summary>
    public const string CpuUtilizationInstrument = "datasetsurrogate.compression.cpu_utilization";

    /// <summary>Tag: the message's SOAP action (empty when none, and for received messages; past a policy's first 4,096 actions and size classes, new ones share <c>*</c>).</summary>
    public const string ActionTag = "action";

    /// <summary>Tag: <c>send</c> or <c>receive</c>.</summary>
    public const string DirectionTag = "direction";

    /// <summary>Tag: <c>raw</c> or the codec (<c>deflate</c>, <c>gzip</c>, <c>zlib</c>, <c>brotli</c>, <c>zstd</c>, <c>lz4</c>).</summary>
    public const string CodecTag = "codec";

    /// <summary>Tag: the level, as a number.</summary>
    public const string LevelTag = "level";

    /// <summary>Tag: the <see cref="CompressionDecisionReason"/> in snake case (<c>model</c>, <c>exploration</c>, <c>below_floor</c>, …).</summary>
    public const string ReasonTag = "reason";

    /// <summary>Tag of <see cref="BytesInstrument"/>: <c>original</c> or <c>wire</c>.</summary>
    public const string StageTag = "stage";

    /// <summary>Tag of <see cref="LinkRateInstrument"/>: where the estimate came from.</summary>
    public const string SourceTag = "source";

    /// <summary>Tag of <see cref="CpuUtilizationInstrument"/>: the highest ladder step the adaptive policy's CPU guard allows (the top one when it does not cap).</summary>
    public const string CapTag = "cap";

    /// <summary>Tag of <see cref="EstimatedRatioInstrument"/> and <see cref="EstimatedSpeedInstrument"/>: the size class, the message's length rounded down to a power of two.</summary>
    public const string SizeTag = "size";

    internal static readonly Meter Meter = new(MeterName);
}
