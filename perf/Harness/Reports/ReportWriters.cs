using System.Globalization;
using System.Text;
using System.Text.Json;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>Writes results.json, results.csv, results.md and report.html into the output folder.</summary>
public static class ReportWriters
{
    public static readonly JsonSerializerOptions Json = new() { WriteIndented = true };

    public static void WriteAll(RunReport report, string outDir)
    {
        File.WriteAllText(Path.Combine(outDir, "results.json"), JsonSerializer.Serialize(report, Json));
        File.WriteAllText(Path.Combine(outDir, "results.csv"), Csv(report.Cells));
        File.WriteAllText(Path.Combine(outDir, "results.md"), MarkdownReport.Write(report));
        File.WriteAllText(Path.Combine(outDir, "report.html"), HtmlReport.Write(report));
    }

    public static readonly string[] CsvColumns =
    [
        "case", "case_label", "direction", "scenario", "rows", "calls", "seconds", "median_ms", "p90_ms", "p99_ms", "max_ms", "mean_ms",
        "calls_per_s", "request_bytes", "response_bytes", "client_alloc_bytes", "client_gen0", "client_gen1", "client_gen2",
        "client_cpu_ms", "server_alloc_bytes", "server_gen0", "server_gen1", "server_gen2", "server_cpu_ms",
        "baseline_scenario", "time_ratio", "bytes_ratio", "cpu_ratio", "alloc_ratio",
    ];

    /// <summary>One row per cell, raw invariant numbers, per-call costs; ratios empty when there is no baseline.</summary>
    public static string Csv(IEnumerable<CellResult> cells)
    {
        var csv = new StringBuilder();
        csv.AppendLine(string.Join(',', CsvColumns));
        foreach (CellResult c in cells)
        {
            object?[] values =
            [
                c.Case, c.CaseLabel, c.Direction, c.Scenario, c.Rows, c.Calls, c.Seconds, c.Latency.Median, c.Latency.P90, c.Latency.P99,
                c.Latency.Max, c.Latency.Mean, c.CallsPerSecond, c.RequestBytes, c.ResponseBytes,
                c.Client.AllocatedBytes, c.Client.Gen0, c.Client.Gen1, c.Client.Gen2, c.Client.CpuMilliseconds,
                c.Server.AllocatedBytes, c.Server.Gen0, c.Server.Gen1, c.Server.Gen2, c.Server.CpuMilliseconds,
                c.BaselineScenario, c.TimeRatio, c.BytesRatio, c.CpuRatio, c.AllocRatio,
            ];
            csv.AppendLine(string.Join(',', values.Select(Field)));
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
