using System.Globalization;
using System.Text;
using Spectre.Console;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Measurement;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Latency.Reports;

/// <summary>results.md of a latency run (summary first, so it is easy to quote) and soak.md of a soak.</summary>
public static class LatencyMarkdown
{
    public static string Write(LatencyReport report)
    {
        var md = new StringBuilder();
        LatencyEnvironment env = report.Environment;
        md.AppendLine($"# Latency matrix, preset {env.Preset}").AppendLine();
        Environment(md, env);
        md.AppendLine().AppendLine("## Summary").AppendLine();
        foreach (string line in Fastest(report))
        {
            md.AppendLine("- " + line);
        }

        var sizes = report.Cells.Select(c => c.Cell.Size).Distinct().Order().ToList();
        md.AppendLine().AppendLine("Median (p50) ms per call by series and payload size; a series is the base configuration with the values named changed:").AppendLine();
        md.AppendLine("| series | " + string.Join(" | ", sizes.Select(LatencyCommand.Size)) + " |");
        md.AppendLine("|---|" + string.Concat(sizes.Select(_ => "--:|")));
        foreach (var series in report.Cells.GroupBy(c => c.Series))
        {
            md.AppendLine($"| {series.Key} | " + string.Join(" | ", sizes.Select(s => series.FirstOrDefault(c => c.Cell.Size == s) is { } c ? LatencyCommand.LatencyMs(c.Latency.P50) : "-")) + " |");
        }

        md.AppendLine().AppendLine("## DataSet: plain vs [DataSetSurrogate]").AppendLine();
        md.AppendLine("| binding | scope | size | rows | plain p50 ms | surrogate p50 ms | surrogate / plain |");
        md.AppendLine("|---|---|--:|--:|--:|--:|--:|");
        foreach (LatencyResult surrogate in report.Cells.Where(c => c.Cell.Serializer == SerializerKind.Surrogate))
        {
            LatencyResult? plain = report.Cells.FirstOrDefault(c => c.Cell == surrogate.Cell with { Serializer = SerializerKind.DataContract });
            md.AppendLine($"| {surrogate.Cell.Binding} | {surrogate.Cell.Scope} | {LatencyCommand.Size(surrogate.Cell.Size)} | {Contracts.Payloads.DataSetRows(surrogate.Cell.Size)} | " +
                $"{(plain is null ? "-" : LatencyCommand.LatencyMs(plain.Latency.P50))} | {LatencyCommand.LatencyMs(surrogate.Latency.P50)} | {(plain is null ? "-" : Ratio(surrogate.Latency.P50 / plain.Latency.P50))} |");
        }

        if (report.Overhead is { } overhead)
        {
            md.AppendLine().AppendLine("## Harness overhead").AppendLine();
            md.AppendLine($"- empty measuring loop (two timestamps and a histogram record): p50 {Us(overhead.EmptyLoop.P50)} µs, p99 {Us(overhead.EmptyLoop.P99)} µs");
            md.AppendLine($"- Direct no-op call (Ping on the service object) through the same loop: p50 {Us(overhead.DirectPing.P50)} µs, p99 {Us(overhead.DirectPing.P99)} µs");
        }

        md.AppendLine().AppendLine("## All measured cells").AppendLine();
        md.AppendLine("| series | size | calls | calls/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | client cpu ms | server cpu ms | client alloc KB | server alloc KB | note |");
        md.AppendLine("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|");
        foreach (LatencyResult c in report.Cells)
        {
            md.AppendLine($"| {c.Series} | {LatencyCommand.Size(c.Cell.Size)} | {c.Calls} | {Num(c.CallsPerSecond)} | {LatencyCommand.LatencyMs(c.Latency.P50)} | {LatencyCommand.LatencyMs(c.Latency.P90)} | {LatencyCommand.LatencyMs(c.Latency.P99)} | " +
                $"{LatencyCommand.LatencyMs(c.Latency.P999)} | {LatencyCommand.LatencyMs(c.Latency.Max)} | {Ms(c.Client.CpuMilliseconds)} | {(c.Server is null ? "-" : Ms(c.Server.CpuMilliseconds))} | " +
                $"{Kb(c.Client.AllocatedBytes)} | {(c.Server is null ? "-" : Kb(c.Server.AllocatedBytes))} | {c.Note} |");
        }

        md.AppendLine().AppendLine("## Cells not run").AppendLine();
        md.AppendLine("Every planned cell that did not run, with why: *cannot work* (on this server or machine, decided before the run) or *failed* (the error).").AppendLine();
        md.AppendLine("| series | sizes | status | reason |");
        md.AppendLine("|---|---|---|---|");
        foreach (var group in report.NotRun.GroupBy(n => (n.Series, n.Status, n.Reason)))
        {
            md.AppendLine($"| {group.Key.Series} | {string.Join(", ", group.Select(n => LatencyCommand.Size(n.Cell.Size)))} | {group.Key.Status} | {group.Key.Reason.Replace("|", "\\|", StringComparison.Ordinal)} |");
        }

        md.AppendLine().AppendLine("## Method").AppendLine();
        BaseCell b = report.Config.Base;
        md.AppendLine($"- base: {b.Scope}, {b.Binding}, security {b.Security}, {b.Instancing}, {b.CallMode}, {b.Serializer}, {b.Data}, {b.Transfer}, {b.Load} loop; one dimension varied at a time over its values × every size, plus the cross products the config lists");
        md.AppendLine("- latency: HdrHistogram (3 digits) of every call in the measured window, per worker, merged (never averaged); two-way: send to checked reply; one-way: send to the service's signal on the side channel (one clock, the client's)");
        md.AppendLine("- sizes: byte[] and Stream bytes, string characters, a container's one member, a 1×3×3 hierarchy's nine leaves together, a DataSet's rows × ~50 bytes");
        md.AppendLine("- cpu / alloc: " + report.Environment.CostMethod);
        return md.ToString();
    }

    public static string Soak(LatencyReport report)
    {
        SoakReport soak = report.Soak!;
        var md = new StringBuilder();
        md.AppendLine($"# Soak, preset {report.Environment.Preset}: {(soak.Verdict.Passed ? "passed" : "FAILED")}").AppendLine();
        Environment(md, report.Environment);
        var c = soak.Clients;
        md.AppendLine().AppendLine(string.Create(CultureInfo.InvariantCulture,
            $"- {soak.Config.Clients} clients (half plain DataSet, half [DataSetSurrogate]) over NetTcp for {c.Seconds:0.0} s, GetDataSet of {soak.Config.Size} bytes ({Contracts.Payloads.DataSetRows(soak.Config.Size)} rows), every reply's row count and value checksum checked"));
        md.AppendLine(string.Create(CultureInfo.InvariantCulture, $"- calls: {c.PlainCalls + c.SurrogateCalls} ({c.PlainCalls} plain, {c.SurrogateCalls} surrogate); errors: **{c.Errors}**"));
        md.AppendLine($"- latency p50 / p99 / max ms: plain {LatencyCommand.LatencyMs(c.PlainLatency.P50)} / {LatencyCommand.LatencyMs(c.PlainLatency.P99)} / {LatencyCommand.LatencyMs(c.PlainLatency.Max)}, surrogate {LatencyCommand.LatencyMs(c.SurrogateLatency.P50)} / {LatencyCommand.LatencyMs(c.SurrogateLatency.P99)} / {LatencyCommand.LatencyMs(c.SurrogateLatency.Max)}");
        md.AppendLine("- criterion: " + soak.Verdict.Criterion);
        if (soak.Verdict.Start is { } start && soak.Verdict.End is { } end)
        {
            md.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"- server at {start.Seconds:0} s → {end.Seconds:0} s: retained heap {start.RetainedHeapBytes / 1048576.0:0.0} → {end.RetainedHeapBytes / 1048576.0:0.0} MB, working set {start.WorkingSetBytes / 1048576.0:0.0} → {end.WorkingSetBytes / 1048576.0:0.0} MB, open fds {start.OpenFds} → {end.OpenFds}, threads {start.Threads} → {end.Threads}"));
        }

        md.AppendLine($"- verdict: **{(soak.Verdict.Passed ? "passed" : "failed: " + string.Join("; ", soak.Verdict.Failures))}**");
        foreach (string error in c.FirstErrors)
        {
            md.AppendLine("  - " + error);
        }

        md.AppendLine().AppendLine("| seconds | retained heap MB | GC heap MB | working set MB | open fds | threads |").AppendLine("|--:|--:|--:|--:|--:|--:|");
        foreach (MemorySample s in soak.Samples)
        {
            md.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"| {s.Seconds:0.0} | {s.RetainedHeapBytes / 1048576.0:0.0} | {s.GcHeapBytes / 1048576.0:0.0} | {s.WorkingSetBytes / 1048576.0:0.0} | {s.OpenFds} | {s.Threads} |"));
        }

        return md.ToString();
    }

    /// <summary>The p50 table by series and size, for the console at the end of a run.</summary>
    public static Table SummaryTable(LatencyReport report)
    {
        var sizes = report.Cells.Select(c => c.Cell.Size).Distinct().Order().ToList();
        var table = new Table().Title("p50 ms by series and size").AddColumn("series");
        foreach (int size in sizes)
        {
            table.AddColumn(new TableColumn(LatencyCommand.Size(size)).RightAligned());
        }

        foreach (var series in report.Cells.GroupBy(c => c.Series))
        {
            table.AddRow([Markup.Escape(series.Key), .. sizes.Select(s => series.FirstOrDefault(c => c.Cell.Size == s) is { } c ? LatencyCommand.LatencyMs(c.Latency.P50) : "-")]);
        }

        return table;
    }

    /// <summary>Which binding and which scope is fastest at the smallest and the largest size (closed loop, two-way, base payload).</summary>
    public static IReadOnlyList<string> Fastest(LatencyReport report)
    {
        BaseCell b = report.Config.Base;
        var lines = new List<string>();
        var comparable = report.Cells.Where(c => c.Cell.Load == b.Load && c.Cell.CallMode == b.CallMode && c.Cell.Data == b.Data
            && c.Cell.Serializer == b.Serializer && c.Cell.Security == b.Security && c.Cell.Instancing == b.Instancing && c.Cell.Transfer == b.Transfer).ToList();
        var sizes = comparable.Select(c => c.Cell.Size).Distinct().Order().ToList();
        if (sizes.Count == 0)
        {
            return ["no closed-loop two-way cells of the base payload were measured"];
        }

        foreach (int size in sizes.Count > 1 ? [sizes[0], sizes[^1]] : sizes)
        {
            var bindings = comparable.Where(c => c.Cell.Size == size && c.Cell.Scope == b.Scope).OrderBy(c => c.Latency.P50).ToList();
            var scopes = comparable.Where(c => c.Cell.Size == size && c.Cell.Binding == b.Binding && c.Cell.Scope != Scope.Direct).OrderBy(c => c.Latency.P50).ToList();
            if (bindings.Count > 0)
            {
                lines.Add($"{LatencyCommand.Size(size)}, {b.Scope}: fastest binding {bindings[0].Cell.Binding} ({LatencyCommand.LatencyMs(bindings[0].Latency.P50)} ms p50); " +
                    string.Join(", ", bindings.Skip(1).Select(c => $"{c.Cell.Binding} {LatencyCommand.LatencyMs(c.Latency.P50)}")));
            }

            if (scopes.Count > 0)
            {
                lines.Add($"{LatencyCommand.Size(size)}, {b.Binding}: fastest scope {scopes[0].Cell.Scope} ({LatencyCommand.LatencyMs(scopes[0].Latency.P50)} ms p50); " +
                    string.Join(", ", scopes.Skip(1).Select(c => $"{c.Cell.Scope} {LatencyCommand.LatencyMs(c.Latency.P50)}")));
            }

            if (comparable.FirstOrDefault(c => c.Cell.Size == size && c.Cell.Scope == Scope.Direct) is { } direct)
            {
                lines.Add($"{LatencyCommand.Size(size)}, Direct (no WCF, the floor): {LatencyCommand.LatencyMs(direct.Latency.P50)} ms p50");
            }
        }

        return lines;
    }

    private static void Environment(StringBuilder md, LatencyEnvironment env)
    {
        md.AppendLine($"- started: {env.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC, command `{env.CommandLine}`");
        md.AppendLine($"- machine: {env.Machine}, {env.OperatingSystem}, {env.ProcessorCount} cores, {env.Runtime}");
        md.AppendLine($"- server: **{env.Server}**; client: {env.Client}");
        md.AppendLine($"- pinning: {env.Pinning}");
        md.AppendLine($"- Remote: {env.Remote}");
        md.AppendLine($"- load models: {env.LoadModels}");
    }

    private static string Us(double milliseconds) => (milliseconds * 1000).ToString("0.000", CultureInfo.InvariantCulture);
}
