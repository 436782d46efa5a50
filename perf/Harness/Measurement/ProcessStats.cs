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

/// <summary>
/// A process's memory and handles at an instant (the soak's samples): the heap retained after a full blocking
/// collection, the GC's committed heap, the working set, open file descriptors (/proc/self/fd) and threads.
/// </summary>
public sealed record MemorySample(double Seconds, long RetainedHeapBytes, long GcHeapBytes, long WorkingSetBytes, int OpenFds, int Threads)
{
    public static MemorySample Capture()
    {
        long retained = GC.GetTotalMemory(forceFullCollection: true);
        using var self = Process.GetCurrentProcess();
        int fds = Directory.Exists("/proc/self/fd") ? Directory.GetFileSystemEntries("/proc/self/fd").Length : -1;
        return new MemorySample(0, retained, GC.GetGCMemoryInfo().HeapSizeBytes, self.WorkingSet64, fds, self.Threads.Count);
    }
}
