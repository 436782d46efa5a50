using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Policies;

/// <summary>The instruments of <see cref="CompressionTelemetry"/>; each records only while a listener is attached.</summary>
internal static class CompressionMetrics
{
    private static readonly Counter<long> Messages = CompressionTelemetry.Meter.CreateCounter<long>(
        CompressionTelemetry.MessagesInstrument, "{message}", "Messages sent and received by the compressing encoders.");

    private static readonly Counter<long> Bytes = CompressionTelemetry.Meter.CreateCounter<long>(
        CompressionTelemetry.BytesInstrument, "By", "Bytes before compression and in the frame.");

    private static readonly Histogram<double> Ratio = CompressionTelemetry.Meter.CreateHistogram<double>(
        CompressionTelemetry.RatioInstrument, "1", "Compressed size over original size of each compressed message sent.");

    private static readonly Gauge<double> EstimatedRatio = CompressionTelemetry.Meter.CreateGauge<double>(
        CompressionTelemetry.EstimatedRatioInstrument, "1", "The adaptive policy's ratio estimate per action, size class, codec and level.");

    private static readonly Gauge<double> EstimatedSpeed = CompressionTelemetry.Meter.CreateGauge<double>(
        CompressionTelemetry.EstimatedSpeedInstrument, "By/s", "The adaptive policy's compression speed estimate per action, size class, codec and level.");

    private static readonly Gauge<double> DecodeSpeed = CompressionTelemetry.Meter.CreateGauge<double>(
        CompressionTelemetry.DecodeSpeedInstrument, "By/s", "The adaptive policy's decompression speed estimate per codec.");

    private static readonly Gauge<double> LinkRate = CompressionTelemetry.Meter.CreateGauge<double>(
        CompressionTelemetry.LinkRateInstrument, "By/s", "The link rate the adaptive policy assumes.");

    private static readonly Counter<long> LinkChanges = CompressionTelemetry.Meter.CreateCounter<long>(
        CompressionTelemetry.LinkChangesInstrument, "{change}", "Changes of link the adaptive policy detected.");

    private static readonly Gauge<double> CpuUtilization = CompressionTelemetry.Meter.CreateGauge<double>(
        CompressionTelemetry.CpuUtilizationInstrument, "1", "This process's CPU use as the policies measure it.");

    private static readonly string[] Levels = [.. Enumerable.Range(0, 23).Select(l => l.ToString(CultureInfo.InvariantCulture))];
    private static readonly string[] Sizes = [.. Enumerable.Range(0, 64).Select(b => (1L << b).ToString(CultureInfo.InvariantCulture))];
    private static readonly string[] Reasons = [.. Enum.GetNames<CompressionDecisionReason>().Select(SnakeCase)];

    public static void Sent(in CompressionChoice choice, in CompressionOutcome outcome)
    {
        if (Messages.Enabled)
        {
            Messages.Add(1, new TagList
            {
                { CompressionTelemetry.ActionTag, choice.Action ?? string.Empty },
                { CompressionTelemetry.DirectionTag, "send" },
                { CompressionTelemetry.CodecTag, CodecName(outcome.Codec) },
                { CompressionTelemetry.LevelTag, Level(outcome.Codec is null ? 0 : outcome.Level) },
                { CompressionTelemetry.ReasonTag, Reasons[(int)ReasonOf(choice, outcome)] },
            });
        }

        RecordBytes(choice.Action ?? string.Empty, "send", outcome);
        if (outcome.Codec is not null && outcome.Length > 0 && Ratio.Enabled)
        {
            Ratio.Record((double)outcome.WireLength / outcome.Length, new TagList
            {
                { CompressionTelemetry.ActionTag, choice.Action ?? string.Empty },
                { CompressionTelemetry.CodecTag, CodecName(outcome.Codec) },
                { CompressionTelemetry.LevelTag, Level(outcome.Level) },
            });
        }
    }

    /// <summary>A received message: its frame's codec; the action is not known at the frame, so it is empty.</summary>
    public static void Received(in CompressionOutcome outcome)
    {
        if (Messages.Enabled)
        {
            Messages.Add(1, new TagList
            {
                { CompressionTelemetry.ActionTag, string.Empty },
                { CompressionTelemetry.DirectionTag, "receive" },
                { CompressionTelemetry.CodecTag, CodecName(outcome.Codec) },
            });
        }

        RecordBytes(string.Empty, "receive", outcome);
    }

    public static void Estimates(string action, int sizeClass, CompressionCodec codec, int level, double ratio, double bytesPerSecond)
    {
        if (EstimatedRatio.Enabled || EstimatedSpeed.Enabled)
        {
            var tags = new TagList
            {
                { CompressionTelemetry.ActionTag, action },
                { CompressionTelemetry.SizeTag, Sizes[Math.Clamp(sizeClass, 0, 63)] },
                { CompressionTelemetry.CodecTag, CodecName(codec) },
                { CompressionTelemetry.LevelTag, Level(level) },
            };
            EstimatedRatio.Record(ratio, tags);
            EstimatedSpeed.Record(bytesPerSecond, tags);
        }
    }

    public static void Decode(CompressionCodec codec, double bytesPerSecond)
    {
        if (DecodeSpeed.Enabled)
        {
            DecodeSpeed.Record(bytesPerSecond, new KeyValuePair<string, object?>(CompressionTelemetry.CodecTag, CodecName(codec)));
        }
    }

    public static void Link(double bytesPerSecond, string source)
    {
        if (LinkRate.Enabled)
        {
            LinkRate.Record(bytesPerSecond, new KeyValuePair<string, object?>(CompressionTelemetry.SourceTag, source));
        }
    }

    public static void LinkChange() => LinkChanges.Add(1);

    public static void Cpu(double utilization, int cap)
    {
        if (CpuUtilization.Enabled)
        {
            CpuUtilization.Record(utilization, new KeyValuePair<string, object?>(CompressionTelemetry.CapTag, Level(Math.Clamp(cap, 0, 22))));
        }
    }

    /// <summary>The reason as sent: <see cref="CompressionDecisionReason.Rejected"/> when a codec was tried and the frame went raw.</summary>
    public static CompressionDecisionReason ReasonOf(in CompressionChoice choice, in CompressionOutcome outcome) =>
        choice.Codec is not null && outcome.Codec is null ? CompressionDecisionReason.Rejected : choice.Reason;

    public static string CodecName(CompressionCodec? codec) => codec switch
    {
        null => "raw",
        CompressionCodec.Deflate => "deflate",
        CompressionCodec.GZip => "gzip",
        CompressionCodec.Brotli => "brotli",
        CompressionCodec.Zstd => "zstd",
        CompressionCodec.Lz4 => "lz4",
        CompressionCodec.ZLib => "zlib",
        _ => "unknown",
    };

    private static void RecordBytes(string action, string direction, in CompressionOutcome outcome)
    {
        if (Bytes.Enabled)
        {
            Bytes.Add(outcome.Length, new TagList { { CompressionTelemetry.ActionTag, action }, { CompressionTelemetry.DirectionTag, direction }, { CompressionTelemetry.StageTag, "original" } });
            Bytes.Add(outcome.WireLength, new TagList { { CompressionTelemetry.ActionTag, action }, { CompressionTelemetry.DirectionTag, direction }, { CompressionTelemetry.StageTag, "wire" } });
        }
    }

    private static string Level(int level) => (uint)level < (uint)Levels.Length ? Levels[level] : level.ToString(CultureInfo.InvariantCulture);

    private static string SnakeCase(string name) =>
        string.Concat(name.Select((c, i) => char.IsUpper(c) ? (i > 0 ? "_" : string.Empty) + char.ToLowerInvariant(c) : c.ToString()));
}
