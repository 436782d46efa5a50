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
    /// CPU time every process used so far on the cores this process may use, this one included; where the system does
    /// not say, <see cref="ProcessCpuTime"/>. Clients and other services on the same machine take cores the policy's
    /// own CPU time does not show.
    /// </summary>
    TimeSpan CoresCpuTime { get; }

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

    /// <summary>
    /// This process's CPU time plus the other processes' share of the machine's busy time that fell on this process's
    /// cores, taken as spread evenly over the machine's cores (exact when the process may use them all).
    /// </summary>
    public TimeSpan CoresCpuTime
    {
        get
        {
            TimeSpan own = ProcessCpuTime;
            if (_machine.Read() is not (TimeSpan busy, int cores))
            {
                return own;
            }

            TimeSpan others = busy > own ? busy - own : TimeSpan.Zero;
            return own + (others * Math.Min(1, ProcessorCount / (double)cores));
        }
    }

    public int ProcessorCount => Environment.ProcessorCount;

    public long PendingWorkItems => ThreadPool.PendingWorkItemCount;
}
