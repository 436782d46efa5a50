using System.Net;
using System.Text.Json;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>
/// The latency client process (<c>latency-client [--inprocess]</c>), the same code in the harness and in the CoreWCF
/// server's build. Lines on stdin: <c>LCELL {spec}</c> opens and warms the cell's workers, answers <c>LREADY</c>,
/// waits for <c>GO</c> (the driver snapshots the server meanwhile), measures printing <c>LPROGRESS calls seconds</c>
/// and answers <c>LRESULT {json}</c>; <c>OVERHEAD</c> answers <c>LOVERHEAD {json}</c>; <c>SOAK {spec}</c> runs the soak
/// printing <c>SPROGRESS calls errors seconds</c> and answers <c>SRESULT {json}</c>. With <c>--inprocess</c> the client
/// starts the service in its own process for InProcess cells.
/// </summary>
public static class LatencyClientCommand
{
    public static int Run(IReadOnlyList<string> args, LatencyHostFactory hostFactory)
    {
        bool inProcess = args.Contains("--inprocess");
        ILatencyHost? host = null;
        try
        {
            return ControlLines.Serve("LCLIENT-READY", new Dictionary<string, Action<string>>
            {
                ["LCELL"] = line =>
                {
                    var spec = JsonSerializer.Deserialize<LatencyCellSpec>(line, LatencyConfig.Json)!;
                    IReadOnlyDictionary<string, string> endpoints = spec.Endpoints ?? InProcessEndpoints(ref host, inProcess, hostFactory, spec.Cell);
                    RunCell(spec with { Endpoints = endpoints });
                },
                ["OVERHEAD"] = _ => Reply("LOVERHEAD " + JsonSerializer.Serialize(Overhead(), LatencyConfig.Json)),
                ["SOAK"] = line =>
                {
                    var soak = JsonSerializer.Deserialize<SoakSpec>(line, LatencyConfig.Json)!;
                    Reply("SRESULT " + JsonSerializer.Serialize(SoakClients.Run(soak, (calls, errors, seconds) =>
                        Reply(FormattableString.Invariant($"SPROGRESS {calls} {errors} {seconds:F1}"))), LatencyConfig.Json));
                },
            });
        }
        finally
        {
            host?.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
    }

    private static IReadOnlyDictionary<string, string> InProcessEndpoints(ref ILatencyHost? host, bool inProcess, LatencyHostFactory factory, LatencyCell cell)
    {
        if (cell.Scope == Scope.Direct)
        {
            return new Dictionary<string, string>();
        }

        if (!inProcess)
        {
            throw new InvalidOperationException("No endpoints given, and this client was not started with --inprocess.");
        }

        host ??= factory(IPAddress.Loopback).GetAwaiter().GetResult();
        string key = EndpointKeys.For(cell);
        var endpoints = new Dictionary<string, string>(host.Endpoints);
        if (!endpoints.ContainsKey(key) && host.OpenAsync(key).GetAwaiter().GetResult() is { } opened)
        {
            endpoints[key] = opened;
        }

        return endpoints;
    }

    private static void RunCell(LatencyCellSpec spec)
    {
        using var caller = new CellCaller(spec.Cell, spec.Endpoints!);
        CallWorker[] workers = LoadLoops.Prepare(spec.Cell, caller, spec.Timing, spec.Loads);
        Reply("LREADY");
        string? go = Console.In.ReadLine();
        if (go != "GO")
        {
            throw new InvalidOperationException($"Expected GO, got '{go}'.");
        }

        ProcessStats before = ProcessStats.Capture();
        LoopOutcome outcome = LoadLoops.Measure(spec.Cell, workers, spec.Timing, spec.Loads,
            (calls, seconds) => Reply(FormattableString.Invariant($"LPROGRESS {calls} {seconds:F2}")));
        ProcessStats cost = ProcessStats.Capture().Minus(before);
        var result = new LatencyCellMeasurement(outcome.Calls, outcome.Seconds, Histograms.Summarize(outcome.Histogram),
            Histograms.Spectrum(outcome.Histogram), cost, Histograms.Hgrm(outcome.Histogram));
        Reply("LRESULT " + JsonSerializer.Serialize(result, LatencyConfig.Json));
    }

    private static OverheadMeasurement Overhead()
    {
        var ping = new Contracts.LatencyService(Contracts.NoSignal.Instance);
        LoopOutcome empty = LoadLoops.EmptyLoop(200_000);
        var histogram = Histograms.Create();
        for (int i = 0; i < 200_000; i++)
        {
            long start = System.Diagnostics.Stopwatch.GetTimestamp();
            ping.Ping();
            Histograms.Record(histogram, System.Diagnostics.Stopwatch.GetTimestamp() - start);
        }

        return new OverheadMeasurement(Histograms.Summarize(empty.Histogram), Histograms.Summarize(histogram));
    }

    private static void Reply(string line) => ControlLines.Reply(line);
}
