using System.Diagnostics;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>One process's own counters at an instant; the difference of two snapshots is that process's cost.</summary>
public sealed record ProcessStats(long AllocatedBytes, int Gen0, int Gen1, int Gen2, double CpuMilliseconds)
{
    public static ProcessStats Capture()
    {
        using var self = Process.GetCurrentProcess();
        return new ProcessStats(
            GC.GetTotalAllocatedBytes(precise: true),
            GC.CollectionCount(0),
            GC.CollectionCount(1),
            GC.CollectionCount(2),
            self.TotalProcessorTime.TotalMilliseconds);
    }

    public ProcessStats Minus(ProcessStats earlier) => new(
        AllocatedBytes - earlier.AllocatedBytes,
        Gen0 - earlier.Gen0,
        Gen1 - earlier.Gen1,
        Gen2 - earlier.Gen2,
        CpuMilliseconds - earlier.CpuMilliseconds);
}

/// <summary>A process's cost divided by the number of calls it served or made.</summary>
public sealed record PerCallCost(double AllocatedBytes, double Gen0, double Gen1, double Gen2, double CpuMilliseconds)
{
    public static PerCallCost From(ProcessStats delta, long calls)
    {
        double n = Math.Max(1, calls);
        return new PerCallCost(delta.AllocatedBytes / n, delta.Gen0 / n, delta.Gen1 / n, delta.Gen2 / n, delta.CpuMilliseconds / n);
    }
}
