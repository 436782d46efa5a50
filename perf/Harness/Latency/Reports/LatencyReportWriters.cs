using System.Globalization;
using System.Text;
using System.Text.Json;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Latency.Reports;

/// <summary>
/// Writes a latency run: results.json, results.csv (a row per planned cell, measured or not), results.md and report.html;
/// a soak writes soak.json, soak-samples.csv and soak.md.
/// </summary>
public static class LatencyReportWriters
{
    public static readonly string[] CsvColumns =
    [
        "status", "reason", "series", "scope", "binding", "security", "instancing", "call_mode", "serializer", "data", "transfer", "load", "size",
        "calls", "seconds", "calls_per_s", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "mean_ms",
        "client_cpu_ms", "client_alloc_bytes", "server_cpu_ms", "server_alloc_bytes", "histogram",
    ];

    public static void WriteAll(LatencyReport report, string outDir)
    {
        if (report.Soak is not null)
        {
            File.WriteAllText(Path.Combine(outDir, "soak.json"), JsonSerializer.Serialize(report, LatencyConfig.JsonFile));
            File.WriteAllText(Path.Combine(outDir, "soak-samples.csv"), SamplesCsv(report.Soak.Samples));
            File.WriteAllText(Path.Combine(outDir, "soak.md"), LatencyMarkdown.Soak(report));
            return;
        }

        File.WriteAllText(Path.Combine(outDir, "results.json"), JsonSerializer.Serialize(report, LatencyConfig.JsonFile));
        File.WriteAllText(Path.Combine(outDir, "results.csv"), Csv(report));
        File.WriteAllText(Path.Combine(outDir, "results.md"), LatencyMarkdown.Write(report));
        File.WriteAllText(Path.Combine(outDir, "report.html"), LatencyHtml.Write(report));
    }

    public static string Csv(LatencyReport report)
    {
        var csv = new StringBuilder().AppendLine(string.Join(',', CsvColumns));
        foreach (LatencyResult r in report.Cells)
        {
            Row(csv, "measured", string.Empty, r.Series, r.Cell,
            [
                r.Calls, r.Seconds, r.CallsPerSecond, r.Latency.P50, r.Latency.P90, r.Latency.P99, r.Latency.P999, r.Latency.Max, r.Latency.Mean,
                r.Client.CpuMilliseconds, r.Client.AllocatedBytes, r.Server?.CpuMilliseconds, r.Server?.AllocatedBytes, r.HistogramFile,
            ]);
        }

        foreach (NotRunCell n in report.NotRun)
        {
            Row(csv, n.Status, n.Reason, n.Series, n.Cell, []);
        }

        return csv.ToString();
    }

    private static void Row(StringBuilder csv, string status, string reason, string series, LatencyCell c, object?[] values)
    {
        object?[] all = [status, reason, series, c.Scope, c.Binding, c.Security, c.Instancing, c.CallMode, c.Serializer, c.Data, c.Transfer, c.Load, c.Size, .. values];
        csv.AppendLine(string.Join(',', all.Concat(Enumerable.Repeat<object?>(null, CsvColumns.Length - all.Length)).Select(Field)));
    }

    private static string SamplesCsv(IReadOnlyList<MemorySample> samples)
    {
        var csv = new StringBuilder().AppendLine("seconds,retained_heap_bytes,gc_heap_bytes,working_set_bytes,open_fds,threads");
        foreach (MemorySample s in samples)
        {
            csv.AppendLine(string.Join(',', new object[] { s.Seconds, s.RetainedHeapBytes, s.GcHeapBytes, s.WorkingSetBytes, s.OpenFds, s.Threads }.Select(Field)));
        }

        return csv.ToString();
    }

    private static string Field(object? value) => value switch
    {
        null => string.Empty,
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        string s when s.IndexOfAny([',', '"', '\n']) >= 0 => "\"" + s.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"",
        _ => value.ToString() ?? string.Empty,
    };
}
