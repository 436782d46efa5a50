using System.Diagnostics;
using System.Text.Json;
using HdrHistogram;
using Surrogate.Compression;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>What the driver asks a client process to measure: one contender, message class and size.</summary>
public sealed record BenchCellSpec(string Contender, string Class, int Size, string Address, double WarmupSeconds, int WarmupCalls, double MeasureSeconds, int MinCalls);

/// <summary>
/// What one client process measured from GO to its last reply: calls and seconds of its closed loop, wire bytes of
/// its connections (kernel TCP counters), its own CPU and allocations, its latency histogram as (value, count) pairs
/// in Stopwatch ticks, <paramref name="Timeline"/>: the calls that completed in each <see cref="Recovery.BucketSeconds"/>
/// from GO, and <paramref name="Window"/>: what it had received when the driver's STOP came (<see cref="BenchClientWindow"/>).
/// </summary>
public sealed record BenchCellMeasurement(long Calls, double Seconds, long RequestBytes, long ResponseBytes, ProcessStats Client, long[][] Latency, int[]? Timeline = null, BenchClientWindow? Window = null);

/// <summary>
/// One client's share of the cell's common window, from GO to the driver's STOP: its seconds and the reply bytes
/// its connections had received (the kernel's count, a reply still arriving included), so replies per second count
/// the part of a reply already through the link rather than a whole call or none.
/// </summary>
public sealed record BenchClientWindow(double Seconds, long ResponseBytes);

/// <summary>The codec sweep of one message class and size: the uncompressed endpoint to capture a reply from, the levels, the time per level.</summary>
public sealed record SweepSpec(string Class, int Size, string Address, IReadOnlyList<string> Levels, double BudgetSeconds);

/// <summary>
/// A client process of the compression benchmarks (<c>compression-client</c>). Lines on stdin: <c>CELL {spec}</c>
/// connects, checks one call, warms up and answers <c>READY</c>; <c>GO</c> starts the measured closed loop (one
/// call in flight), which prints <c>PROGRESS calls seconds</c>, answers <c>MET</c> once it has the spec's calls and
/// seconds, and goes on until <c>STOP</c> (sent when every client has met them); the reply in flight then completes,
/// and <c>RESULT {json}</c> ends the cell. Every client thus loads the link to the end of one common window, whose
/// received bytes give the cell's rate: each client's calls over its own window, ended by its own count, added up to
/// more than the link carries (a window ended on its client's lucky streak, and the last ones ran on a link the
/// first had left). <c>SWEEP {spec}</c>
/// captures a reply's bytes and times the codecs on them, answering <c>SWEPT {json}</c>.
/// </summary>
public static class BenchClientCommand
{
    public static int Run() => ControlLines.Serve("CLIENT-READY", new Dictionary<string, Action<string>>
    {
        ["CELL"] = spec => RunCell(JsonSerializer.Deserialize<BenchCellSpec>(spec)!),
        ["SWEEP"] = spec => Reply("SWEPT " + JsonSerializer.Serialize(Sweep(JsonSerializer.Deserialize<SweepSpec>(spec)!))),
    });

    private static void RunCell(BenchCellSpec spec)
    {
        var address = new Uri(spec.Address);
        MessageClass messageClass = MessageClassCatalog.Get(spec.Class);
        using IBenchClient client = messageClass.Connect(BenchBindings.Client(ContenderCatalog.Get(spec.Contender)), address);
        client.Call(spec.Size);
        var warmup = Stopwatch.StartNew();
        for (int i = 1; i < spec.WarmupCalls || warmup.Elapsed.TotalSeconds < spec.WarmupSeconds; i++)
        {
            client.Call(spec.Size);
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

        LongHistogram histogram = Histograms.Create();
        ProcessStats before = ProcessStats.Capture();
        var socketsBefore = SocketByteCounter.Snapshot(address.Port);
        var clock = Stopwatch.StartNew();
        Task<BenchClientWindow> stop = WindowAtStopAsync();
        double nextProgress = 0.5;
        long calls = 0;
        bool met = false;
        var timeline = new List<int>();
        while (!met || !stop.IsCompleted)
        {
            long start = Stopwatch.GetTimestamp();
            client.Call(spec.Size);
            Histograms.Record(histogram, Stopwatch.GetTimestamp() - start);
            calls++;
            int bucket = (int)(clock.Elapsed.TotalSeconds / Recovery.BucketSeconds);
            while (timeline.Count <= bucket)
            {
                timeline.Add(0);
            }

            timeline[bucket]++;
            if (!met && calls >= spec.MinCalls && clock.Elapsed.TotalSeconds >= spec.MeasureSeconds)
            {
                met = true;
                Reply("MET");
            }

            if (clock.Elapsed.TotalSeconds >= nextProgress)
            {
                Reply(FormattableString.Invariant($"PROGRESS {calls} {clock.Elapsed.TotalSeconds:F2}"));
                nextProgress += 0.5;
            }
        }

        double seconds = clock.Elapsed.TotalSeconds;
        var (sent, received) = SocketByteCounter.Delta(socketsBefore, SocketByteCounter.Snapshot(address.Port));
        ProcessStats cost = ProcessStats.Capture().Minus(before);
        long[][] latency = [.. histogram.RecordedValues().Select(v => new[] { v.ValueIteratedTo, v.CountAddedInThisIterationStep })];
        var measurement = new BenchCellMeasurement(calls, seconds, sent, received, cost, latency, [.. timeline], stop.GetAwaiter().GetResult());
        Reply("RESULT " + JsonSerializer.Serialize(measurement));

        // The window ends when STOP is read; the continuation runs on the reading thread, so the clock is read at once.
        async Task<BenchClientWindow> WindowAtStopAsync()
        {
            string? line = await ControlLines.ReadLineOffPoolAsync();
            var window = new BenchClientWindow(clock.Elapsed.TotalSeconds, SocketByteCounter.Delta(socketsBefore, SocketByteCounter.Snapshot(address.Port)).Received);
            return line == "STOP" ? window : throw new InvalidOperationException($"Expected STOP, got '{line}'.");
        }
    }

    private static List<SweepPoint> Sweep(SweepSpec spec)
    {
        var recorder = new ReplyRecorder();
        MessageClass messageClass = MessageClassCatalog.Get(spec.Class);
        using (IBenchClient client = messageClass.Connect(BenchBindings.Recording(recorder), new Uri(spec.Address)))
        {
            // The first reply on a connection carries the session dictionary's strings; later ones are the steady state.
            for (int i = 0; i < 3; i++)
            {
                client.Call(spec.Size);
            }
        }

        byte[] message = recorder.Last ?? throw new InvalidOperationException("No reply was recorded.");
        var levels = spec.Levels.Select(ContenderCatalog.Get).Select(c => c.ModelCodec ?? throw new ArgumentException($"{c.Name} has no codec to sweep."));
        return [.. CodecSweep.Run(spec.Class, spec.Size, message, levels, spec.BudgetSeconds)];
    }

    private static void Reply(string line) => ControlLines.Reply(line);
}
