using System.Diagnostics;
using System.Text.Json;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// The client process (<c>Harness client</c>). For each <c>CELL {json}</c> line: connect, warm up, print <c>READY</c>, wait for <c>GO</c> (the driver starts traces and snapshots the
/// server meanwhile), run the measured closed loop printing <c>PROGRESS calls seconds</c>, and print
/// <c>RESULT {json}</c>. <c>FLOOR {json}</c> measures the build floor of a scenario.
/// </summary>
public static class ClientCommand
{
    private static readonly ScenarioCache Cache = new();

    /// <summary>
    /// Synchronous on purpose: every cell runs on the main thread, so the measured loop never ends up running inside
    /// some thread-pool continuation (which would also muddle the traces' stacks).
    /// </summary>
    public static int Run() => ControlLines.Serve("CLIENT-READY", new Dictionary<string, Action<string>>
    {
        ["CELL"] = spec => RunCell(JsonSerializer.Deserialize<CellSpec>(spec)!),
        ["FLOOR"] = spec =>
        {
            var floor = JsonSerializer.Deserialize<FloorSpec>(spec)!;
            Reply("FLOOR " + JsonSerializer.Serialize(BuildFloorMeter.Measure(floor.Scenario, Cache.DataSet(floor.Scenario), floor.Seconds, floor.MinIterations)));
        },
    });

    private static void RunCell(CellSpec spec)
    {
        ComparisonCase comparison = ComparisonCases.Get(spec.Case);
        var address = new Uri(spec.Address);
        using ICaseClient client = comparison.CreateClient(address);

        int rows = client.Call(spec.Scenario);
        if (rows <= 0)
        {
            throw new InvalidOperationException($"{spec.Case}/{spec.Scenario} returned no rows.");
        }

        var warmup = Stopwatch.StartNew();
        for (int i = 1; i < spec.WarmupCalls || warmup.Elapsed.TotalSeconds < spec.WarmupSeconds; i++)
        {
            client.Call(spec.Scenario);
        }

        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        Reply("READY");
        string? go = Console.In.ReadLine();
        if (go != "GO")
        {
            throw new InvalidOperationException($"Expected GO, got '{go}'.");
        }

        var recorder = new LatencyRecorder();
        ProcessStats before = ProcessStats.Capture();
        var (sentBefore, receivedBefore) = SocketByteCounter.Read(address.Port);
        var clock = Stopwatch.StartNew();
        double nextProgress = 0.25;
        while (recorder.Count < spec.MaxCalls && (recorder.Count < spec.MinCalls || clock.Elapsed.TotalSeconds < spec.MeasureSeconds))
        {
            long start = Stopwatch.GetTimestamp();
            client.Call(spec.Scenario);
            recorder.Record(Stopwatch.GetTimestamp() - start);
            if (clock.Elapsed.TotalSeconds >= nextProgress)
            {
                Reply($"PROGRESS {recorder.Count} {clock.Elapsed.TotalSeconds:F2}");
                nextProgress += 0.25;
            }
        }

        double elapsed = clock.Elapsed.TotalSeconds;
        var (sentAfter, receivedAfter) = SocketByteCounter.Read(address.Port);
        ProcessStats cost = ProcessStats.Capture().Minus(before);
        double requestBytes = (sentAfter - sentBefore) / (double)recorder.Count;
        double responseBytes = (receivedAfter - receivedBefore) / (double)recorder.Count;
        using var hgrm = new StringWriter();
        recorder.WriteDistribution(hgrm);
        var result = new ClientCellResult(recorder.Count, elapsed, rows, recorder.Summarize(), requestBytes, responseBytes, cost, hgrm.ToString());
        Reply("RESULT " + JsonSerializer.Serialize(result));
    }

    private static void Reply(string line) => ControlLines.Reply(line);
}
