using System.Diagnostics;
using HdrHistogram;
using Surrogate.Perf.Harness.Latency.Matrix;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>How long a cell warms up and measures.</summary>
public sealed record CellTiming(double WarmupSeconds, int WarmupCalls, double MeasureSeconds, int MinCalls, int MaxCalls);

/// <summary>The measured window of a cell: calls, seconds, and the merged histogram of every worker.</summary>
public sealed record LoopOutcome(long Calls, double Seconds, LongHistogram Histogram);

/// <summary>
/// The three load models. Closed: one worker, one call in flight. Throughput: N workers, each closed loop, on their
/// own threads and channels. Open: calls scheduled at a fixed rate and taken by a pool of workers; each latency runs
/// from the call's scheduled send time, so a stall's queued calls are counted (no coordinated omission).
/// Workers record into their own histograms, merged at the end.
/// </summary>
public static class LoadLoops
{
    /// <summary>Opens the cell's workers (one, the open loop's pool, or the throughput clients) and warms each up.</summary>
    public static CallWorker[] Prepare(LatencyCell cell, CellCaller caller, CellTiming timing, LatencyConfigLoads loads)
    {
        int workers = cell.Load switch { LoadModel.Closed => 1, LoadModel.Throughput => loads.ThroughputClients, _ => loads.OpenLoopWorkers };
        CallWorker[] callers = [.. Enumerable.Range(0, workers).Select(_ => caller.NewWorker())];
        Parallel.ForEach(callers, new ParallelOptions { MaxDegreeOfParallelism = workers }, w => Warm(w, timing));
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        return callers;
    }

    /// <summary>The measured window over the prepared workers.</summary>
    public static LoopOutcome Measure(LatencyCell cell, CallWorker[] callers, CellTiming timing, LatencyConfigLoads loads, Action<long, double> progress)
    {
        return cell.Load switch
        {
            LoadModel.Closed => Closed(callers[0], timing, progress),
            LoadModel.Throughput => Concurrent(callers, timing, progress),
            _ => Open(callers, timing, loads.OpenLoopRate, progress),
        };
    }

    /// <summary>Recording an empty action through the same loop: the timer's and loop's own cost per call.</summary>
    public static LoopOutcome EmptyLoop(int calls)
    {
        LongHistogram histogram = Histograms.Create();
        var clock = Stopwatch.StartNew();
        for (int i = 0; i < calls; i++)
        {
            long start = Stopwatch.GetTimestamp();
            Histograms.Record(histogram, Stopwatch.GetTimestamp() - start);
        }

        return new LoopOutcome(calls, clock.Elapsed.TotalSeconds, histogram);
    }

    private static void Warm(CallWorker worker, CellTiming timing)
    {
        var clock = Stopwatch.StartNew();
        for (int i = 0; i < timing.WarmupCalls || clock.Elapsed.TotalSeconds < timing.WarmupSeconds; i++)
        {
            worker.Call();
        }
    }

    private static LoopOutcome Closed(CallWorker worker, CellTiming timing, Action<long, double> progress)
    {
        LongHistogram histogram = Histograms.Create();
        var clock = Stopwatch.StartNew();
        double nextProgress = 0.25;
        long calls = 0;
        while (calls < timing.MaxCalls && (calls < timing.MinCalls || clock.Elapsed.TotalSeconds < timing.MeasureSeconds))
        {
            long start = Stopwatch.GetTimestamp();
            worker.Call();
            Histograms.Record(histogram, Stopwatch.GetTimestamp() - start);
            calls++;
            if (clock.Elapsed.TotalSeconds >= nextProgress)
            {
                progress(calls, clock.Elapsed.TotalSeconds);
                nextProgress += 0.25;
            }
        }

        return new LoopOutcome(calls, clock.Elapsed.TotalSeconds, histogram);
    }

    private static LoopOutcome Concurrent(CallWorker[] workers, CellTiming timing, Action<long, double> progress)
    {
        long calls = 0;
        var clock = Stopwatch.StartNew();
        LongHistogram[] parts = RunThreads(workers, (worker, histogram) =>
        {
            while (Interlocked.Read(ref calls) < timing.MaxCalls && (Interlocked.Read(ref calls) < timing.MinCalls || clock.Elapsed.TotalSeconds < timing.MeasureSeconds))
            {
                long start = Stopwatch.GetTimestamp();
                worker.Call();
                Histograms.Record(histogram, Stopwatch.GetTimestamp() - start);
                Interlocked.Increment(ref calls);
            }
        }, () => progress(Interlocked.Read(ref calls), clock.Elapsed.TotalSeconds));
        return new LoopOutcome(calls, clock.Elapsed.TotalSeconds, Histograms.Merge(parts));
    }

    private static LoopOutcome Open(CallWorker[] workers, CellTiming timing, double rate, Action<long, double> progress)
    {
        long next = -1, calls = 0;
        double ticksPerCall = Stopwatch.Frequency / rate;
        long origin = Stopwatch.GetTimestamp();
        long total = Math.Min(timing.MaxCalls, Math.Max(timing.MinCalls, (long)Math.Ceiling(timing.MeasureSeconds * rate)));
        LongHistogram[] parts = RunThreads(workers, (worker, histogram) =>
        {
            for (long i = Interlocked.Increment(ref next); i < total; i = Interlocked.Increment(ref next))
            {
                long scheduled = origin + (long)(i * ticksPerCall);
                WaitUntil(scheduled);
                worker.Call();
                Histograms.Record(histogram, Stopwatch.GetTimestamp() - scheduled);
                Interlocked.Increment(ref calls);
            }
        }, () => progress(Interlocked.Read(ref calls), Stopwatch.GetElapsedTime(origin).TotalSeconds));
        return new LoopOutcome(calls, Stopwatch.GetElapsedTime(origin).TotalSeconds, Histograms.Merge(parts));
    }

    /// <summary>Runs one thread per worker, each with its own histogram, reporting progress every quarter second; rethrows a worker's failure.</summary>
    private static LongHistogram[] RunThreads(CallWorker[] workers, Action<CallWorker, LongHistogram> body, Action report)
    {
        var histograms = workers.Select(_ => Histograms.Create()).ToArray();
        Exception? failure = null;
        var threads = workers.Select((w, i) => new Thread(() =>
        {
            try
            {
                body(w, histograms[i]);
            }
#pragma warning disable CA1031 // rethrown on the calling thread below
            catch (Exception e)
#pragma warning restore CA1031
            {
                Interlocked.CompareExchange(ref failure, e, null);
            }
        }) { IsBackground = true, Name = "latency-worker-" + i }).ToList();
        threads.ForEach(t => t.Start());
        while (!threads.All(t => t.Join(250)))
        {
            report();
        }

        return failure is null ? histograms : throw new InvalidOperationException("A worker failed: " + failure.Message, failure);
    }

    private static void WaitUntil(long timestamp)
    {
        long remaining;
        while ((remaining = timestamp - Stopwatch.GetTimestamp()) > 0)
        {
            if (remaining > Stopwatch.Frequency / 500)
            {
                Thread.Sleep(1);
            }
            else
            {
                Thread.SpinWait(20);
            }
        }
    }
}

/// <summary>The load models' settings a client needs from the config.</summary>
public sealed record LatencyConfigLoads(double OpenLoopRate, int OpenLoopWorkers, int ThroughputClients);
