using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using Surrogate.Perf.Harness.Latency.Matrix;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// Writes a compression run: results.json (everything), results.csv (a row per planned cell, measured or not),
/// sweep.csv (codec, level, ratio and speed per message), breakeven.csv (the model per contender and message),
/// results.md and report.html.
/// </summary>
public static class BenchReportWriters
{
    public static readonly string[] CsvColumns =
    [
        "status", "reason", "link", "contender", "class", "size", "clients", "calls", "seconds", "ops_per_s", "response_bytes", "request_bytes",
        "server_cpu_ms", "client_cpu_ms", "server_cpu_share", "client_cpu_share", "server_alloc_bytes", "client_alloc_bytes", "p50_ms", "p99_ms", "published_ops_per_s", "decisions", "round_ops_per_s",
        "stolen_share", "attempts",
    ];

    public static readonly string[] SweepColumns =
    [
        "class", "size", "codec", "level", "message_bytes", "frame_bytes", "ratio", "compress_ms", "decompress_ms", "compress_mb_per_s", "decompress_mb_per_s", "repetitions",
    ];

    public static readonly string[] BreakEvenColumns =
    [
        "contender", "class", "size", "response_bytes", "compressed_response_bytes", "server_ms", "compress_ms", "client_ms", "decompress_ms",
        "throughput_break_even_bits", "latency_break_even_bits", "loopback_predicted_ops", "loopback_measured_ops",
    ];

    /// <summary>The JSON of the files: as the latency run's, and a break-even of "Infinity" where compressing never loses.</summary>
    private static readonly JsonSerializerOptions Json = new(LatencyConfig.JsonFile) { NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals };

    public static void WriteAll(BenchReport report, string outDir)
    {
        File.WriteAllText(Path.Combine(outDir, "results.json"), JsonSerializer.Serialize(report, Json));
        File.WriteAllText(Path.Combine(outDir, "results.csv"), Csv(report));
        File.WriteAllText(Path.Combine(outDir, "sweep.csv"), SweepCsv(report.Sweep));
        File.WriteAllText(Path.Combine(outDir, "breakeven.csv"), BreakEvenCsv(report.Model));
        File.WriteAllText(Path.Combine(outDir, "results.md"), BenchMarkdown.Write(report));
        File.WriteAllText(Path.Combine(outDir, "report.html"), BenchHtml.Write(report));
    }

    public static string Csv(BenchReport report)
    {
        var csv = new StringBuilder().AppendLine(string.Join(',', CsvColumns));
        foreach (BenchCell c in report.Cells)
        {
            Row(csv, CsvColumns.Length, "measured", string.Empty, c.Link, c.Contender, c.Class, c.Size, c.Clients, c.Calls, c.Seconds, c.OpsPerSecond,
                c.ResponseBytes, c.RequestBytes, c.ServerCpuMs, c.ClientCpuMs, c.ServerCpuShare, c.ClientCpuShare, c.ServerAllocatedBytes, c.ClientAllocatedBytes,
                c.Latency.P50, c.Latency.P99, PublishedFigures.Get(c.Link, c.Contender, c.Size), c.Decisions is null ? null : BenchDecisionLogs.Describe(c.Decisions),
                c.RoundOpsPerSecond is null ? null : string.Join(' ', c.RoundOpsPerSecond.Select(o => o.ToString("0.###", CultureInfo.InvariantCulture))),
                c.StolenShare, c.Attempts);
        }

        foreach (BenchNotRun n in report.NotRun)
        {
            Row(csv, CsvColumns.Length, n.Status, n.Reason, n.Link, n.Contender, n.Class, n.Size);
        }

        return csv.ToString();
    }

    public static string SweepCsv(IEnumerable<SweepPoint> sweep)
    {
        var csv = new StringBuilder().AppendLine(string.Join(',', SweepColumns));
        foreach (SweepPoint p in sweep)
        {
            Row(csv, SweepColumns.Length, p.Class, p.Size, p.Codec, p.Level, p.MessageBytes, p.FrameBytes, p.Ratio, p.CompressMs, p.DecompressMs, p.CompressMBps, p.DecompressMBps, p.Repetitions);
        }

        return csv.ToString();
    }

    public static string BreakEvenCsv(BenchModel? model)
    {
        var csv = new StringBuilder().AppendLine(string.Join(',', BreakEvenColumns));
        foreach (ModelRow r in model?.Rows ?? [])
        {
            ModelInputs i = r.Inputs;
            Row(csv, BreakEvenColumns.Length, r.Contender, r.Class, r.Size, i.ResponseBytes, i.CompressedResponseBytes, i.ServerSeconds * 1000, i.CompressSeconds * 1000,
                i.ClientSeconds * 1000, i.DecompressSeconds * 1000, r.ThroughputBreakEvenBits, r.LatencyBreakEvenBits, r.LoopbackPredictedOps, r.LoopbackMeasuredOps);
        }

        return csv.ToString();
    }

    private static void Row(StringBuilder csv, int columns, params object?[] values) =>
        csv.AppendLine(string.Join(',', values.Concat(Enumerable.Repeat<object?>(null, columns - values.Length)).Select(Field)));

    private static string Field(object? value) => value switch
    {
        null => string.Empty,
        double d when double.IsPositiveInfinity(d) => "inf",
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        string s when s.IndexOfAny([',', '"', '\n']) >= 0 => "\"" + s.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"",
        _ => value.ToString() ?? string.Empty,
    };
}
