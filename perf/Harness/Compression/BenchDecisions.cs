using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;
using Surrogate.Compression;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// How often a policy contender's server sent its replies one way during a measured window: raw or a codec and
/// level, for one reason, with the mean ratio of wire bytes to message bytes and, for the adaptive policy, the inputs
/// of those decisions: the model (throughput or latency; decisions are counted per model), the median link rate
/// assumed and its most frequent source, the median CPU use, the median gain the model expected over raw (predicted
/// rate of the choice ÷ raw's) and the median message size.
/// </summary>
public sealed record DecisionCount(
    string Choice, string Reason, long Count, double MeanRatio,
    double? LinkBytesPerSecond = null, string? LinkSource = null, double? Cpu = null, double? ExpectedGain = null,
    string? Goal = null, double? MedianLength = null);

/// <summary>
/// The decision logs of the server's policy contenders (adaptive, rules-2011), one per contender and process.
/// <c>DECISIONS name</c> on the server's control protocol answers what was decided since the previous ask, so the
/// driver asks once before a cell (dropping the warm-up) and once after it.
/// </summary>
public static class BenchDecisionLogs
{
    /// <summary>Enough for 20 s of small replies on loopback; a longer window keeps the latest ones (the counts say how many).</summary>
    public const int Capacity = 1 << 18;

    private static readonly ConcurrentDictionary<string, CompressionDecisionLog> Logs = new();
    private static readonly ConcurrentDictionary<string, long> Seen = new();

    /// <summary>The options the server's encoder gets: a policy contender's with its log, the others unchanged.</summary>
    public static CompressionOptions? ServerOptions(Contender contender) => contender.Options is { Policy: not CompressionPolicy.Fixed } options
        ? options with { DecisionLog = Logs.GetOrAdd(contender.Name, _ => new CompressionDecisionLog(Capacity)) }
        : contender.Options;

    /// <summary>The server's answer to <c>DECISIONS name</c>: JSON of the decisions since the last ask (empty for a contender without a log).</summary>
    public static string Answer(string contender) => JsonSerializer.Serialize(Since(contender));

    /// <summary>The decisions of <paramref name="contender"/>'s log since the previous call, grouped by choice and reason.</summary>
    public static IReadOnlyList<DecisionCount> Since(string contender)
    {
        if (!Logs.TryGetValue(contender, out CompressionDecisionLog? log))
        {
            return [];
        }

        // Only what is new is copied: a copy of the whole ring before and after each window is tens of MB at full capacity.
        long position = Seen.GetValueOrDefault(contender);
        IReadOnlyList<CompressionDecision> fresh = log.Since(ref position);
        Seen[contender] = position;
        return Summarize(fresh);
    }

    /// <summary>Counts per choice, reason and model, most frequent first.</summary>
    public static IReadOnlyList<DecisionCount> Summarize(IEnumerable<CompressionDecision> decisions) =>
    [
        .. decisions.GroupBy(d => (Choice: Choice(d), Reason: d.Reason.ToString(), Goal: d.Goal?.ToString().ToLowerInvariant()))
            .Select(g => new DecisionCount(
                g.Key.Choice, g.Key.Reason, g.LongCount(), g.Sum(d => (double)d.WireLength) / Math.Max(1, g.Sum(d => (double)d.Length)),
                Median(g.Select(d => d.LinkBytesPerSecond)), g.Where(d => d.LinkSource is not null).GroupBy(d => d.LinkSource).MaxBy(s => s.Count())?.Key,
                Median(g.Select(d => d.CpuUtilization)), Median(g.Select(d => d.PredictedRate / d.RawPredictedRate)),
                g.Key.Goal, Median(g.Select(d => (double)d.Length))))
            .OrderByDescending(c => c.Count).ThenBy(c => c.Choice, StringComparer.Ordinal).ThenBy(c => c.Reason, StringComparer.Ordinal),
    ];

    /// <summary>One line for a table: <c>zstd-1 model 97%, lz4-0 exploration 3%</c>.</summary>
    public static string Describe(IReadOnlyList<DecisionCount>? decisions)
    {
        if (decisions is null or { Count: 0 })
        {
            return "-";
        }

        long total = decisions.Sum(d => d.Count);
        return string.Join(", ", decisions.Select(d => string.Create(CultureInfo.InvariantCulture,
            $"{d.Choice} {d.Reason.ToLowerInvariant()} {100.0 * d.Count / total:0.#}% (×{d.MeanRatio:0.00}{Inputs(d)})")));
    }

    /// <summary>The adaptive policy's inputs: <c>; throughput, link 12.1 MB/s round_trip, cpu 45%, gain 1.30, median 150 KB</c>.</summary>
    private static string Inputs(DecisionCount d) => d.LinkBytesPerSecond is not { } link ? string.Empty : string.Create(CultureInfo.InvariantCulture,
        $"; {d.Goal}, link {link / 1e6:0.###} MB/s {d.LinkSource}, cpu {d.Cpu * 100:0}%, gain {d.ExpectedGain:0.00}, median {d.MedianLength / 1024:0.#} KB");

    private static double? Median(IEnumerable<double> values)
    {
        double[] finite = [.. values.Where(double.IsFinite).Order()];
        return finite.Length == 0 ? null : finite[finite.Length / 2];
    }

    private static string Choice(in CompressionDecision d) =>
        d.Codec is { } codec && d.Reason != CompressionDecisionReason.Rejected ? $"{codec}-{d.Level}".ToLowerInvariant() : "raw";
}
