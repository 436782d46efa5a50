using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// What the adaptive and 2011 policies read from the process: the clock, CPU time, cores and the thread pool's queue.
/// The tests give their own, so every decision can be reproduced without timing.
/// </summary>
internal interface IPolicyEnvironment
{
    /// <summary>Now, in <see cref="Stopwatch"/> ticks.</summary>
    long Timestamp { get; }

    /// <summary>CPU time this process used so far (user and kernel).</summary>
    TimeSpan ProcessCpuTime { get; }

    /// <summary>Cores this process may use (affinity and cgroup limits included).</summary>
    int ProcessorCount { get; }

    /// <summary>Work items queued in the thread pool, not yet started.</summary>
    long PendingWorkItems { get; }
}

/// <summary>The real process: <see cref="Stopwatch"/>, <see cref="Environment.CpuUsage"/>, <see cref="ThreadPool.PendingWorkItemCount"/>.</summary>
internal sealed class SystemEnvironment : IPolicyEnvironment
{
    public static SystemEnvironment Instance { get; } = new();

    public long Timestamp => Stopwatch.GetTimestamp();

    public TimeSpan ProcessCpuTime => Environment.CpuUsage.TotalTime;

    public int ProcessorCount => Environment.ProcessorCount;

    public long PendingWorkItems => ThreadPool.PendingWorkItemCount;
}
