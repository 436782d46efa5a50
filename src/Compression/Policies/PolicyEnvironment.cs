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

    /// <summary>
    /// Busy time of all the machine's cores so far, every process counted, and how many cores it has; null where the
    /// system does not say (<see cref="MachineCpu"/>). Clients and other services on the same machine take cores the
    /// policy's own CPU time does not show.
    /// </summary>
    (TimeSpan Busy, int Cores)? MachineCpuTime { get; }

    /// <summary>Cores this process may use (affinity and cgroup limits included).</summary>
    int ProcessorCount { get; }

    /// <summary>Work items queued in the thread pool, not yet started.</summary>
    long PendingWorkItems { get; }
}

/// <summary>
/// The real process: <see cref="Stopwatch"/>, <see cref="Environment.CpuUsage"/>, <see cref="ThreadPool.PendingWorkItemCount"/>,
/// and the machine's busy time from /proc/stat (<see cref="MachineCpu"/>).
/// </summary>
internal sealed class SystemEnvironment : IPolicyEnvironment
{
    private readonly MachineCpu _machine = new();

    public static SystemEnvironment Instance { get; } = new();

    public long Timestamp => Stopwatch.GetTimestamp();

    public TimeSpan ProcessCpuTime => Environment.CpuUsage.TotalTime;

    public (TimeSpan Busy, int Cores)? MachineCpuTime => _machine.Read();

    public int ProcessorCount => Environment.ProcessorCount;

    public long PendingWorkItems => ThreadPool.PendingWorkItemCount;
}
