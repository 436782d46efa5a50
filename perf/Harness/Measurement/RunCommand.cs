using System.Diagnostics;
using System.Runtime;
using System.Text.Json;
using Surrogate.Perf.Harness.Cli;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Reports;
using Surrogate.Perf.Harness.Tracing;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// The driver: starts the server and client processes (with <c>--link</c>, the server in its own network namespace
/// behind a shaped veth pair), walks the cells (scenario × case), snapshots the server around each measured window,
/// optionally traces both processes during it, and writes the reports.
/// </summary>
public static class RunCommand
{
    private static readonly TimeSpan StartupTimeout = TimeSpan.FromMinutes(3);
    private static readonly TimeSpan CellTimeout = TimeSpan.FromMinutes(10);

    /// <summary>Runs the comparison; 2 when <c>--link</c> cannot be set up (a one-line reason on stderr).</summary>
    public static async Task<int> RunAsync(HarnessOptions options, string commandLine)
    {
        ServerChoice? server = ServerChoice.Resolve(options.Server);
        if (server is null)
        {
            await Console.Error.WriteLineAsync(ServerChoice.NotBuilt);
            return 2;
        }

        options = options with { Server = server.Name };
        if (options.Link is null)
        {
            return await MeasureAsync(options, commandLine, link: null);
        }

        if (NetworkLink.Missing() is { } missing)
        {
            await Console.Error.WriteLineAsync(missing);
            return 2;
        }

        NetworkLink link;
        try
        {
            link = NetworkLink.Create(options.Link);
        }
        catch (InvalidOperationException e)
        {
            await Console.Error.WriteLineAsync("--link: could not create the network namespace and veth pair: " + e.Message.ReplaceLineEndings(" "));
            return 2;
        }

        using (link)
        {
            return await MeasureAsync(options, commandLine, link);
        }
    }

    private static async Task<int> MeasureAsync(HarnessOptions options, string commandLine, NetworkLink? link)
    {
        string outDir = OutputFolder.Resolve(options.OutputDirectory);
        Directory.CreateDirectory(outDir);
        Directory.CreateDirectory(Path.Combine(outDir, "histograms"));
        bool pin = options.Pin && Pinning.Available;
        var environment = new RunEnvironment(
            DateTimeOffset.UtcNow,
            options.Profile.Name,
            commandLine,
            Environment.MachineName,
            System.Runtime.InteropServices.RuntimeInformation.OSDescription,
            System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription,
            Environment.ProcessorCount,
            (GCSettings.IsServerGC ? "server" : "workstation") + ", non-concurrent, both sides",
            Pinning.Describe(options.Pin),
            link?.Describe() ?? "loopback (127.0.0.1), unshaped",
            ServerChoice.Resolve(options.Server)!.Description,
            $"closed loop, one client, one call at a time; warmup {options.Profile.WarmupSeconds} s, then {options.Profile.MeasureSeconds} s (at least {options.Profile.MinCalls} calls) per cell"
                + (options.Trace ? "; traced: EventPipe sampling runs during the measured window, so timings include its overhead" : string.Empty),
            SocketByteCounter.Available
                ? "the kernel's TCP_INFO byte counters of the client's sockets to the server, read in the client around the measured window"
                : "not measured (needs Linux: TCP_INFO through /proc/self/fd)",
            "each process's own GC.GetTotalAllocatedBytes(precise), GC.CollectionCount and Process.TotalProcessorTime deltas over the measured window, divided by calls",
            link?.Settings());

        using var console = new ConsoleReporter(outDir, environment);
        console.Header();

        string[] listen = link is null ? [] : ["--listen", link.ServerAddress.ToString()];
        await using var server = ServerChoice.Resolve(options.Server)!.Start(pin ? 0 : null, link?.ExecPrefix ?? [], listen);
        var endpoints = JsonSerializer.Deserialize<Dictionary<string, string>>(await server.ExpectAsync("LISTENING", StartupTimeout))!;
        console.Status("building scenarios on the server");
        await server.SendAsync("PRELOAD " + string.Join(',', options.Scenarios));
        await server.ExpectAsync("PRELOADED", StartupTimeout);

        await using var client = ChildProcess.Start("client", pin ? 1 : null, [], "client");
        await client.ExpectAsync("CLIENT-READY", StartupTimeout);
        using var stopping = TerminationSignals.Register(() =>
        {
            client.Kill();
            server.Kill();
        });

        var floors = new List<BuildFloor>();
        foreach (string scenario in options.Scenarios)
        {
            console.Status($"build floor: {scenario}");
            await client.SendAsync("FLOOR " + JsonSerializer.Serialize(new FloorSpec(scenario, options.Profile.FloorSeconds, options.Profile.FloorIterations)));
            floors.Add(JsonSerializer.Deserialize<BuildFloor>(await client.ExpectAsync("FLOOR", CellTimeout))!);
        }

        console.Floors(floors);
        var plan = Plan(options);
        var cells = new List<CellResult>();
        var traces = new List<(string Process, string Case, string Scenario, string Path)>();
        console.TableHeader(plan.Count);
        for (int i = 0; i < plan.Count; i++)
        {
            var (comparison, scenario) = plan[i];
            string label = $"[{i + 1,2}/{plan.Count}] {comparison.Name} {scenario}";
            var spec = new CellSpec(comparison.Name, scenario, endpoints[comparison.Endpoint], options.Profile.WarmupSeconds,
                options.Profile.WarmupCalls, options.Profile.MeasureSeconds, options.Profile.MinCalls, options.Profile.MaxCalls);
            console.Status($"{label}: warming up");
            await client.SendAsync("CELL " + JsonSerializer.Serialize(spec));
            await client.ExpectAsync("READY", CellTimeout);

            var captures = new List<TraceCapture>();
            if (options.Trace)
            {
                string stem = Path.Combine(outDir, "traces", $"{comparison.Name}.{scenario}");
                Directory.CreateDirectory(Path.GetDirectoryName(stem)!);
                captures.Add(TraceCapture.Start(server.Id, stem + ".server.nettrace"));
                captures.Add(TraceCapture.Start(client.Id, stem + ".client.nettrace"));
            }

            ProcessStats serverBefore = await ServerStatsAsync(server);
            await client.SendAsync("GO");
            string resultJson = await client.ExpectAsync("RESULT", CellTimeout, line => console.Progress(label, line, options.Profile.MeasureSeconds));
            ProcessStats serverCost = (await ServerStatsAsync(server)).Minus(serverBefore);
            foreach (TraceCapture capture in captures)
            {
                await capture.StopAsync();
                await capture.DisposeAsync();
                string process = capture.Path.EndsWith(".server.nettrace", StringComparison.Ordinal) ? "server" : "client";
                traces.Add((process, comparison.Name, scenario, capture.Path));
            }

            var measured = JsonSerializer.Deserialize<ClientCellResult>(resultJson)!;
            string histogram = Path.Combine("histograms", $"{comparison.Name}.{scenario}.hgrm");
            await File.WriteAllTextAsync(Path.Combine(outDir, histogram), measured.Histogram);
            var cell = new CellResult
            {
                Case = comparison.Name,
                CaseLabel = comparison.Label,
                Direction = comparison.Direction,
                Scenario = scenario,
                Rows = measured.Rows,
                Calls = measured.Calls,
                Seconds = measured.ElapsedSeconds,
                Latency = measured.Latency,
                RequestBytes = measured.RequestBytesPerCall,
                ResponseBytes = measured.ResponseBytesPerCall,
                Client = PerCallCost.From(measured.Client, measured.Calls),
                Server = PerCallCost.From(serverCost, measured.Calls),
                HistogramFile = histogram,
            };
            cells.Add(cell);
            console.Row(RunReport.WithRatios([.. cells], ComparisonCases.Baseline, ComparisonCases.ObjectsScenario)[^1]);
        }

        var summaries = new List<TraceSummary>();
        if (traces.Count > 0)
        {
            foreach (var trace in traces)
            {
                console.Status($"converting and analyzing {Path.GetFileName(trace.Path)}");
                summaries.Add(TraceAnalyzer.Analyze(trace.Path, trace.Process, trace.Case, trace.Scenario, outDir, writeSpeedscope: true));
            }
        }

        if (link is not null)
        {
            console.Note("tc -s qdisc of the link (sent, dropped, overlimits):" + Environment.NewLine + link.Statistics());
        }

        var report = new RunReport(environment, RunReport.WithRatios(cells, ComparisonCases.Baseline, ComparisonCases.ObjectsScenario), floors, summaries);
        ReportWriters.WriteAll(report, outDir);
        console.Done(report);
        return 0;
    }

    /// <summary>Scenarios outermost, the baseline first in each, so ratios can be shown as rows complete.</summary>
    private static List<(ComparisonCase Case, string Scenario)> Plan(HarnessOptions options)
    {
        var plan = new List<(ComparisonCase, string)>();
        var cases = ComparisonCases.All.Where(c => options.Cases.Contains(c.Name)).ToList();
        foreach (string scenario in options.Scenarios)
        {
            plan.AddRange(cases.Where(c => c.UsesScenario).Select(c => (c, scenario)));
        }

        plan.AddRange(cases.Where(c => !c.UsesScenario).Select(c => (c, ComparisonCases.ObjectsScenario)));
        return plan;
    }

    private static async Task<ProcessStats> ServerStatsAsync(ChildProcess server)
    {
        await server.SendAsync("STATS");
        return JsonSerializer.Deserialize<ProcessStats>(await server.ExpectAsync("STATS", StartupTimeout))!;
    }
}

/// <summary>Where results go: <c>--out</c>, else perf/out/&lt;timestamp&gt; under the repository root (or the current folder).</summary>
public static class OutputFolder
{
    public static string Resolve(string? requested)
    {
        if (requested is not null)
        {
            return Path.GetFullPath(requested);
        }

        string root = RepositoryRoot() ?? Directory.GetCurrentDirectory();
        return Path.Combine(root, "perf", "out", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture));
    }

    private static string? RepositoryRoot()
    {
        for (var dir = new DirectoryInfo(Directory.GetCurrentDirectory()); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Surrogate.sln")))
            {
                return dir.FullName;
            }
        }

        return null;
    }
}
