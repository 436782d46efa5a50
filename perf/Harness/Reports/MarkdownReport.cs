using System.Text;
using Surrogate.Perf.Harness.Measurement;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>results.md: environment, the results table, the build floor, what each column means, trace findings.</summary>
public static class MarkdownReport
{
    public static readonly (string Column, string Meaning)[] Legend =
    [
        ("median / p99 ms", "per-call latency at the client, from sending the request to having the DataSet (HdrHistogram, 3 digits)"),
        ("calls/s", "measured calls divided by the measured window (one client, closed loop)"),
        ("direction", "reply: the DataSet comes back from the service (GetDataSet); both: it goes to the service and back in one call (LoadDataSet, the -load cases)"),
        ("req / resp KB", "bytes on the wire per call: the kernel's TCP_INFO counters (bytes_acked, bytes_received) of the client's sockets to the server, read around the measured window"),
        ("x time", "median divided by the baseline's median (plain DataSet over NetTcp binary, same scenario; objects: rows-10000)"),
        ("x bytes", "request + response bytes divided by the baseline's"),
        ("x cpu", "client + server CPU per call divided by the baseline's"),
        ("cpu ms", "Process.TotalProcessorTime delta of that process over the measured window, per call"),
        ("alloc KB", "GC.GetTotalAllocatedBytes(precise) delta of that process, per call"),
        ("floor alloc KB", "GC.GetTotalAllocatedBytes(precise) delta around one build of the floor (the smallest of its builds)"),
        ("gc0/1/2", "GC.CollectionCount deltas of that process per call (0.25 = one gen0 GC every 4 calls)"),
    ];

    public static string Write(RunReport report)
    {
        var md = new StringBuilder();
        RunEnvironment env = report.Environment;
        md.AppendLine("# " + Title(env)).AppendLine();
        md.AppendLine($"- started: {env.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC, profile **{env.Profile}**, command `{env.CommandLine}`");
        md.AppendLine($"- machine: {env.Machine}, {env.OperatingSystem}, {env.ProcessorCount} cores, {env.Runtime}, GC {env.GcMode}");
        md.AppendLine($"- pinning: {env.Pinning}");
        md.AppendLine($"- network: **{env.Network}**");
        md.AppendLine($"- server: **{env.Server}**");
        md.AppendLine($"- load model: {env.LoadModel}");
        md.AppendLine($"- bytes: {env.BytesMethod}");
        md.AppendLine($"- costs: {env.CostMethod}");
        md.AppendLine();
        md.AppendLine("## Results").AppendLine();
        md.AppendLine("| case | direction | scenario | rows | median ms | p99 ms | calls/s | req KB | resp KB | x time | x bytes | x cpu | client cpu ms | server cpu ms | client alloc KB | server alloc KB | client gc0/1/2 | server gc0/1/2 |");
        md.AppendLine("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        foreach (CellResult c in report.Cells)
        {
            md.AppendLine($"| {c.CaseLabel} | {c.Direction} | {c.Scenario} | {c.Rows} | {Ms(c.Latency.Median)} | {Ms(c.Latency.P99)} | {Num(c.CallsPerSecond)} | " +
                $"{Kb(c.RequestBytes)} | {Kb(c.ResponseBytes)} | {Ratio(c.TimeRatio)} | {Ratio(c.BytesRatio)} | {Ratio(c.CpuRatio)} | " +
                $"{Ms(c.Client.CpuMilliseconds)} | {Ms(c.Server.CpuMilliseconds)} | {Kb(c.Client.AllocatedBytes)} | {Kb(c.Server.AllocatedBytes)} | " +
                $"{Gc(c.Client)} | {Gc(c.Server)} |");
        }

        md.AppendLine().AppendLine("## Build floor").AppendLine();
        md.AppendLine("Building the scenario's DataSet from arrays in-process (BuildFromArraysFloor: `LoadDataRow` as Unchanged, keys, relations, constraints and non-null checks after the rows, on a freshly collected heap): every call must build it once on the client, so no transport can be faster or allocate less on the client. The surrogate columns are the `nettcp-surrogate` cell's: its median and its allocations per call on each side, over the floor's.");
        md.AppendLine().AppendLine("| scenario | rows | floor median ms | floor min ms | floor alloc KB | surrogate median ms | surrogate / floor | surrogate client alloc KB | surrogate server alloc KB | client alloc / floor alloc |");
        md.AppendLine("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        foreach (BuildFloor floor in report.Floors)
        {
            CellResult? surrogate = report.Cells.FirstOrDefault(c => c.Case == "nettcp-surrogate" && c.Scenario == floor.Scenario);
            string median = surrogate is null ? "-" : Ms(surrogate.Latency.Median);
            string over = surrogate is null ? "-" : Ratio(surrogate.Latency.Median / floor.MedianMilliseconds);
            string clientAlloc = surrogate is null ? "-" : Kb(surrogate.Client.AllocatedBytes);
            string serverAlloc = surrogate is null ? "-" : Kb(surrogate.Server.AllocatedBytes);
            string allocOver = surrogate is null || floor.AllocatedBytes <= 0 ? "-" : Ratio(surrogate.Client.AllocatedBytes / floor.AllocatedBytes);
            md.AppendLine($"| {floor.Scenario} | {floor.Rows} | {Ms(floor.MedianMilliseconds)} | {Ms(floor.MinMilliseconds)} | {Kb(floor.AllocatedBytes)} | " +
                $"{median} | {over} | {clientAlloc} | {serverAlloc} | {allocOver} |");
        }

        md.AppendLine().AppendLine("## Columns").AppendLine();
        foreach (var (column, meaning) in Legend)
        {
            md.AppendLine($"- **{column}**: {meaning}");
        }

        if (report.Traces.Count > 0)
        {
            md.AppendLine().AppendLine("## Traces (thread time, not CPU time)").AppendLine();
            md.AppendLine(TraceTables.Markdown(report.Traces, topFrames: 15));
        }

        return md.ToString();
    }

    /// <summary>The report's title; a <c>--link</c> run names its link there, so it is never read as a loopback run.</summary>
    public static string Title(RunEnvironment env) =>
        env.Link is null ? "DataSet transport comparison" : $"DataSet transport comparison over a shaped {env.Link.Rate} link";

    private static string Gc(PerCallCost cost) =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{cost.Gen0:0.##}/{cost.Gen1:0.##}/{cost.Gen2:0.##}");
}
