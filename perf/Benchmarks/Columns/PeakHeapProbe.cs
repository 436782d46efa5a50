using System.Reflection;
using BenchmarkDotNet.Running;

namespace Surrogate.Perf.Benchmarks.Columns;

/// <summary>
/// Runs one benchmark case once in the host process (parameters set, global setup run) and samples the heap size
/// after each garbage collection while it runs. The peak above the pre-run live heap is the memory the operation
/// kept alive at once: flat across row counts means the operation streams.
/// </summary>
public static class PeakHeapProbe
{
    /// <summary>Peak live heap growth in bytes during one invocation of the case's workload.</summary>
    public static long Measure(BenchmarkCase benchmarkCase)
    {
        var descriptor = benchmarkCase.Descriptor;
        object instance = Activator.CreateInstance(descriptor.Type)!;
        foreach (var parameter in benchmarkCase.Parameters.Items)
        {
            var member = descriptor.Type.GetMember(parameter.Name, BindingFlags.Public | BindingFlags.Instance).Single();
            if (member is PropertyInfo property)
            {
                property.SetValue(instance, parameter.Value);
            }
            else
            {
                ((FieldInfo)member).SetValue(instance, parameter.Value);
            }
        }

        descriptor.GlobalSetupMethod?.Invoke(instance, null);
        try
        {
            return Sample(() => descriptor.WorkloadMethod.Invoke(instance, null));
        }
        finally
        {
            descriptor.GlobalCleanupMethod?.Invoke(instance, null);
        }
    }

    private static long Sample(Action workload)
    {
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        long before = GC.GetTotalMemory(forceFullCollection: true);
        long lastIndex = GC.GetGCMemoryInfo(GCKind.Any).Index;
        long peak = before;
        using var done = new ManualResetEventSlim();
        var sampler = new Thread(() =>
        {
            while (!done.IsSet)
            {
                var info = GC.GetGCMemoryInfo(GCKind.Any);
                if (info.Index != lastIndex)
                {
                    lastIndex = info.Index;
                    peak = Math.Max(peak, info.HeapSizeBytes - info.FragmentedBytes);
                }

                done.Wait(1);
            }
        }) { IsBackground = true };
        sampler.Start();
        workload();
        done.Set();
        sampler.Join();
        return Math.Max(0, peak - before);
    }
}
