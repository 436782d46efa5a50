using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Surrogate.Compression.Framing;

/// <summary>
/// The clock the adaptive policy times codecs with, in <see cref="Stopwatch"/> ticks: on 64-bit Linux the calling
/// thread's CPU time, elsewhere wall time. The policy prices CPU, and wall time also counts whatever ran while the
/// codec's thread waited: on a service whose four callers share one core, DEFLATE 6 chosen for every 16 KB reply took
/// a median 117 µs of wall time in one run and 101 µs of its thread's CPU in the next (docs/compression.md). A reading
/// is a system call that takes the scheduler's lock (0.5 µs on the benchmark machine when quiet, 1.3 µs on a busy
/// service), so the encoders read it only around the codecs of the messages the policy times
/// (<see cref="Policies.AdaptivePolicy.TimingInterval"/>).
/// </summary>
internal static partial class CodecClock
{
    private const int ThreadCpuTimeClock = 3; // CLOCK_THREAD_CPUTIME_ID

    /// <summary>Whether <see cref="Now"/> reads this thread's CPU time (else wall time): on 64-bit Linux, whose timespec this reads.</summary>
    public static bool MeasuresCpu { get; } = OperatingSystem.IsLinux() && Environment.Is64BitProcess && Probe();

    /// <summary>Now, in <see cref="Stopwatch"/> ticks, on this thread's CPU clock where there is one.</summary>
    public static long Now() => MeasuresCpu && ThreadCpu(out long ticks) ? ticks : Stopwatch.GetTimestamp();

    /// <summary>Whether the C library answers for the clock; a libc the runtime cannot load leaves wall time.</summary>
    private static bool Probe()
    {
        try
        {
            return ThreadCpu(out _);
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    private static bool ThreadCpu(out long ticks)
    {
        if (ClockGetTime(ThreadCpuTimeClock, out Timespec time) != 0)
        {
            ticks = 0;
            return false;
        }

        ticks = (time.Seconds * Stopwatch.Frequency) + (long)(time.Nanoseconds * (Stopwatch.Frequency / 1e9));
        return true;
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGetTime(int clock, out Timespec time);

    [StructLayout(LayoutKind.Sequential)]
    private struct Timespec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
