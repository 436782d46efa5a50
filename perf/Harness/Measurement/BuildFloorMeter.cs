using System.Data;
using System.Diagnostics;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// Times building a scenario's DataSet from plain arrays with <see cref="BuildFromArraysFloor"/> (the benchmarks'
/// floor: the fastest public path, keys and relations after the rows), each build on a freshly collected heap: the
/// work any deserializer must do at least once per call, so it floors the surrogate's time.
/// </summary>
public static class BuildFloorMeter
{
    public static BuildFloor Measure(string scenario, DataSet source, double seconds, int minIterations)
    {
        var data = ScenarioData.Extract(source);
        int rows = data.RowCount;

        BuildFromArraysFloor.Build(data);
        var times = new List<double>();
        var total = Stopwatch.StartNew();
        while (times.Count < minIterations || total.Elapsed.TotalSeconds < seconds)
        {
            // A floor is a lower bound: collections owed to earlier builds are not charged to this one.
            GC.Collect();
            GC.WaitForPendingFinalizers();
            long start = Stopwatch.GetTimestamp();
            GC.KeepAlive(BuildFromArraysFloor.Build(data));
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }

        times.Sort();
        return new BuildFloor(scenario, rows, times[times.Count / 2], times[0], times.Count);
    }
}
