using System.Net;
using System.Text.Json;
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
        Reply("LCLIENT-READY");
        try
        {
            while (Console.In.ReadLine() is { } line)
            {
                string[] parts = line.Split(' ', 2, StringSplitOptions.TrimEntries);
                try
                {
                    switch (parts[0])
                    {
                        case "LCELL":
                            var spec = JsonSerializer.Deserialize<LatencyCellSpec>(parts[1], LatencyConfig.Json)!;
                            IReadOnlyDictionary<string, string> endpoints = spec.Endpoints ?? InProcessEndpoints(ref host, inProcess, hostFactory, spec.Cell);
                            RunCell(spec with { Endpoints = endpoints });
                            break;
                        case "OVERHEAD":
                            Reply("LOVERHEAD " + JsonSerializer.Serialize(Overhead(), LatencyConfig.Json));
                            break;
                        case "SOAK":
                            var soak = JsonSerializer.Deserialize<SoakSpec>(parts[1], LatencyConfig.Json)!;
                            Reply("SRESULT " + JsonSerializer.Serialize(SoakClients.Run(soak, (calls, errors, seconds) =>
                                Reply(FormattableString.Invariant($"SPROGRESS {calls} {errors} {seconds:F1}"))), LatencyConfig.Json));
                            break;
                        case "QUIT":
                            return 0;
                        default:
                            Reply("ERROR unknown command " + parts[0]);
                            break;
                    }
                }
#pragma warning disable CA1031 // reported to the driver, which lists the cell as failed and goes on
                catch (Exception e)
#pragma warning restore CA1031
                {
                    Reply("ERROR " + e.GetType().Name + ": " + Innermost(e).Message.ReplaceLineEndings(" "));
                    Console.Error.WriteLine(e.ToString());
                }
            }
        }
        finally
        {
            host?.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }

        return 0;
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

    private static Exception Innermost(Exception e) => e is System.Reflection.TargetInvocationException { InnerException: { } inner } ? Innermost(inner) : e;

    private static void Reply(string line)
    {
        lock (Console.Out)
        {
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }
    }
}
