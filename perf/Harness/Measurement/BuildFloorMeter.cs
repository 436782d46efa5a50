using System.Data;
using System.Diagnostics;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// Times building a scenario's DataSet from plain arrays with <see cref="BuildFromArraysFloor"/> (the benchmarks'
/// floor: the fastest public path, keys and relations after the rows), each build on a freshly collected heap: the
/// work any deserializer must do at least once per call, so it floors the surrogate's time, and the bytes one build
/// allocates (GC.GetTotalAllocatedBytes(precise) around it, the smallest of the builds) floor the client's allocations.
/// </summary>
public static class BuildFloorMeter
{
    public static BuildFloor Measure(string scenario, DataSet source, double seconds, int minIterations)
    {
        var data = ScenarioData.Extract(source);
        int rows = data.RowCount;

        BuildFromArraysFloor.Build(data);
        var times = new List<double>();
        long allocated = long.MaxValue;
        var total = Stopwatch.StartNew();
        while (times.Count < minIterations || total.Elapsed.TotalSeconds < seconds)
        {
            // A floor is a lower bound: collections owed to earlier builds are not charged to this one.
            GC.Collect();
            GC.WaitForPendingFinalizers();
            long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
            long start = Stopwatch.GetTimestamp();
            GC.KeepAlive(BuildFromArraysFloor.Build(data));
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            allocated = Math.Min(allocated, GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore);
        }

        times.Sort();
        return new BuildFloor(scenario, rows, times[times.Count / 2], times[0], times.Count, allocated);
    }
}
