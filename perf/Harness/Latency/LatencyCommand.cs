using System.Globalization;
using System.Text.Json;
using Spectre.Console;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Latency.Reports;
using Surrogate.Perf.Harness.Latency.Soak;
using Surrogate.Perf.Harness.Measurement;
using Surrogate.Perf.Harness.Reports;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Latency;

/// <summary>Options of the latency command after presets, config file and command line are combined.</summary>
public sealed record LatencyOptions(LatencyConfig Config, string? OutputDirectory, string? Server, bool Pin, bool Soak, string CommandLine);

/// <summary>
/// The latency command's driver: plans the matrix, lists every cell that cannot work here with its reason, runs the
/// rest scope by scope in their processes (a failed cell is listed as failed and the run goes on), measures the
/// harness's own overhead, and writes the reports. With <c>--soak</c> it runs the soak instead.
/// </summary>
public static class LatencyCommand
{
    private static readonly string[] Columns = ["series", "size", "p50 ms", "p99 ms", "p99.9 ms", "calls/s", "cli cpu ms", "srv cpu ms", "cli KB", "srv KB"];

    public static async Task<int> RunAsync(LatencyOptions options)
    {
        ServerChoice? server = ServerChoice.Resolve(options.Server);
        if (server is null)
        {
            await Console.Error.WriteLineAsync(ServerChoice.NotBuilt);
            return 2;
        }

        string outDir = OutputFolder.Resolve(options.OutputDirectory);
        Directory.CreateDirectory(Path.Combine(outDir, "histograms"));
        LatencyConfig config = options.Config;
        bool pin = options.Pin && Pinning.Available;
        string? remoteMissing = NetworkLink.Missing();
        var environment = new LatencyEnvironment(
            DateTimeOffset.UtcNow, config.Name, options.CommandLine, Environment.MachineName,
            System.Runtime.InteropServices.RuntimeInformation.OSDescription,
            System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription, Environment.ProcessorCount,
            Pinning.Describe(options.Pin) + "; InProcess unpinned (host and client share the process)",
            server.Description,
            server.Name == Feasibility.CoreWcf ? "System.ServiceModel client in the CoreWCF server's build (latency-client; it has the net.uds client)" : "System.ServiceModel client in the harness (latency-client)",
            remoteMissing is null ? $"server in its own network namespace behind a veth pair, tbf at {config.RemoteLinkRate} each way" : "unavailable: " + remoteMissing,
            string.Create(CultureInfo.InvariantCulture,
                $"closed: one call in flight; open: {config.OpenLoopRate:0.#} calls/s scheduled over {config.OpenLoopWorkers} workers, latency from the scheduled send; throughput: {config.ThroughputClients} clients, each closed loop; warm-up {config.WarmupSeconds} s (at least {config.WarmupCalls} calls) per worker, then {config.MeasureSeconds} s (at least {config.MinCalls} calls)"),
            "each process's own Process.TotalProcessorTime and GC.GetTotalAllocatedBytes(precise) deltas over the measured window, per call; InProcess: one process, both sides in the client column");

        LiveBoard.WidenWhenRedirected();
        AnsiConsole.MarkupLine($"[bold]Latency matrix[/], preset [bold]{Markup.Escape(config.Name)}[/], server: {Markup.Escape(server.Description)}");
        AnsiConsole.MarkupLine($"output: {Markup.Escape(outDir)}");
        if (options.Soak)
        {
            return await SoakCommand.RunAsync(config, server, pin, environment, outDir);
        }

        IReadOnlyList<LatencyCell> plan = MatrixPlanner.Plan(config);
        var notRun = new List<NotRunCell>();
        var runnable = new List<LatencyCell>();
        foreach (LatencyCell cell in plan)
        {
            if (Feasibility.Reason(cell, server.Name, remoteMissing) is { } reason)
            {
                notRun.Add(new NotRunCell(cell, SeriesNames.Of(cell, config.Base), "cannot work", reason));
            }
            else
            {
                runnable.Add(cell);
            }
        }

        AnsiConsole.MarkupLine($"{plan.Count} cells planned: {runnable.Count} to run, {notRun.Count} cannot work here (listed in results.md)");
        var results = new List<LatencyResult>();
        OverheadMeasurement? overhead = null;
        using (var board = new LiveBoard(Columns, runnable.Count))
        {
            foreach (var group in runnable.GroupBy(c => c.Scope == Scope.Direct ? Scope.SameMachine : c.Scope).OrderBy(g => g.Key))
            {
                OverheadMeasurement? measured = await RunScopeAsync(group.Key, [.. group], server, pin, config, outDir, board, results, notRun);
                overhead ??= measured;
            }
        }

        foreach (LatencyCell lost in runnable.Where(c => !results.Any(r => r.Cell == c) && !notRun.Any(n => n.Cell == c)))
        {
            notRun.Add(new NotRunCell(lost, SeriesNames.Of(lost, config.Base), "failed", "not run: its scope ended early"));
        }

        var report = new LatencyReport(environment, config, results, notRun, overhead, Soak: null);
        LatencyReportWriters.WriteAll(report, outDir);
        AnsiConsole.Write(LatencyMarkdown.SummaryTable(report));
        AnsiConsole.MarkupLine($"{results.Count} cells measured, {notRun.Count(n => n.Status == "failed")} failed, {notRun.Count(n => n.Status == "cannot work")} cannot work; wrote results.md, results.csv, results.json, report.html and histograms/ to {Markup.Escape(outDir)}");
        return 0;
    }

    /// <summary>Runs one scope's cells in its processes; returns the harness overhead when this group measured it.</summary>
    private static async Task<OverheadMeasurement?> RunScopeAsync(
        Scope scope, List<LatencyCell> cells, ServerChoice server, bool pin, LatencyConfig config, string outDir,
        LiveBoard board, List<LatencyResult> results, List<NotRunCell> notRun)
    {
        NetworkLink? link = null;
        ProcessGroup? group = null;
        OverheadMeasurement? overhead = null;
        try
        {
            if (scope == Scope.Remote)
            {
                board.Status("Remote: creating the network namespace and veth pair");
                link = NetworkLink.Create(LinkRate.Parse(config.RemoteLinkRate));
            }

            foreach (LatencyCell cell in cells)
            {
                string series = SeriesNames.Of(cell, config.Base);
                try
                {
                    if (group is null || group.Broken)
                    {
                        if (group is not null)
                        {
                            await group.DisposeAsync();
                        }

                        board.Status($"{scope}: starting processes");
                        group = await ProcessGroup.StartAsync(server, cell.Scope == Scope.Direct ? Scope.SameMachine : cell.Scope, pin, link);
                        if (overhead is null && scope == Scope.SameMachine)
                        {
                            await group.Client.SendAsync("OVERHEAD");
                            overhead = JsonSerializer.Deserialize<OverheadMeasurement>(await group.Client.ExpectAsync("LOVERHEAD", ProcessGroup.CellTimeout), LatencyConfig.Json);
                        }
                    }

                    results.Add(await RunCellAsync(group, cell, series, config, outDir, board));
                    LatencyResult r = results[^1];
                    board.Row(series, Size(cell.Size), LatencyMs(r.Latency.P50), LatencyMs(r.Latency.P99), LatencyMs(r.Latency.P999), Num(r.CallsPerSecond),
                        Ms(r.Client.CpuMilliseconds), r.Server is null ? "-" : Ms(r.Server.CpuMilliseconds), Kb(r.Client.AllocatedBytes), r.Server is null ? "-" : Kb(r.Server.AllocatedBytes));
                }
                catch (InvalidOperationException e)
                {
                    notRun.Add(new NotRunCell(cell, series, "failed", e.Message.ReplaceLineEndings(" ")));
                    board.Skip();
                }
            }
        }
        catch (InvalidOperationException e)
        {
            // The scope's set-up failed (the link, a process): its cells are listed as failed with the reason.
            foreach (LatencyCell cell in cells.Where(c => !results.Any(r => r.Cell == c) && !notRun.Any(n => n.Cell == c)))
            {
                notRun.Add(new NotRunCell(cell, SeriesNames.Of(cell, config.Base), "failed", e.Message.ReplaceLineEndings(" ")));
                board.Skip();
            }
        }
        finally
        {
            if (group is not null)
            {
                await group.DisposeAsync();
            }

            link?.Dispose();
        }

        return overhead;
    }

    private static async Task<LatencyResult> RunCellAsync(ProcessGroup group, LatencyCell cell, string series, LatencyConfig config, string outDir, LiveBoard board)
    {
        string label = $"{series} {Size(cell.Size)}";
        var spec = new LatencyCellSpec(cell, await group.EndpointsForAsync(cell),
            new CellTiming(config.WarmupSeconds, config.WarmupCalls, config.MeasureSeconds, config.MinCalls, config.MaxCalls),
            new LatencyConfigLoads(config.OpenLoopRate, config.OpenLoopWorkers, config.ThroughputClients));
        board.Status($"{label}: warming up");
        await group.Client.SendAsync("LCELL " + JsonSerializer.Serialize(spec, LatencyConfig.Json));
        await group.Client.ExpectAsync("LREADY", ProcessGroup.CellTimeout);
        ProcessStats? before = await group.ServerStatsAsync();
        await group.Client.SendAsync("GO");
        string json = await group.Client.ExpectAsync("LRESULT", ProcessGroup.CellTimeout, line =>
        {
            if (ProcessGroup.Progress(line) is var (calls, seconds))
            {
                board.Status(string.Create(CultureInfo.InvariantCulture, $"{label}: {seconds:0.0}/{config.MeasureSeconds:0.#} s, {calls} calls"));
            }
        });
        ProcessStats? after = await group.ServerStatsAsync();
        var measured = JsonSerializer.Deserialize<LatencyCellMeasurement>(json, LatencyConfig.Json)!;
        string histogram = Path.Combine("histograms", cell.Key + ".hgrm");
        await File.WriteAllTextAsync(Path.Combine(outDir, histogram), measured.Histogram);
        string? note = cell.Scope switch
        {
            Scope.InProcess => "one process: the client column holds both sides",
            Scope.Direct => "no WCF: the service object called directly" + (cell.CallMode == CallMode.OneWay ? "; one-way timed to the method's return" : string.Empty),
            _ => null,
        };
        return new LatencyResult(cell, series, measured.Calls, measured.Seconds, measured.Latency, measured.Spectrum,
            PerCallCost.From(measured.Client, measured.Calls),
            before is null || after is null || cell.Scope == Scope.Direct ? null : PerCallCost.From(after.Minus(before), measured.Calls),
            histogram, note);
    }

    /// <summary>Milliseconds as the comparison writes them, with the digits a sub-10 µs Direct call needs.</summary>
    public static string LatencyMs(double value) => value >= 0.01 ? Ms(value) : value.ToString("0.######", CultureInfo.InvariantCulture);

    public static string Size(int bytes) => bytes switch
    {
        >= 1 << 20 when bytes % (1 << 20) == 0 => (bytes >> 20).ToString(CultureInfo.InvariantCulture) + " MiB",
        >= 1_000_000 when bytes % 1_000_000 == 0 => (bytes / 1_000_000).ToString(CultureInfo.InvariantCulture) + " MB",
        >= 1_000 when bytes % 1_000 == 0 => (bytes / 1_000).ToString(CultureInfo.InvariantCulture) + " KB",
        _ => bytes.ToString(CultureInfo.InvariantCulture) + " B",
    };
}
