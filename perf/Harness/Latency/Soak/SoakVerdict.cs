using System.Globalization;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Latency.Soak;

/// <summary>
/// Whether a soak passed: calls were made, no errors, and the server's memory and handles were flat, comparing the
/// first sample after the warm-up with the last: retained heap end ≤ start × growthLimit + allowance, open file
/// descriptors end ≤ start + allowance. Working set and threads are reported, not judged (the GC keeps segments).
/// </summary>
public sealed record SoakVerdict(bool Passed, string Criterion, MemorySample? Start, MemorySample? End, IReadOnlyList<string> Failures)
{
    public static SoakVerdict Evaluate(IReadOnlyList<MemorySample> samples, SoakConfig config, long calls, long errors)
    {
        string criterion = string.Create(CultureInfo.InvariantCulture,
            $"zero errors; after a {config.WarmupSeconds:0.#} s warm-up, the server's retained heap (after a full collection) at the end ≤ start × {config.GrowthLimit:0.###} + {config.HeapAllowanceBytes / 1048576.0:0.#} MB, and open descriptors at the end ≤ start + {config.FdAllowance}");
        var failures = new List<string>();
        if (calls <= 0)
        {
            failures.Add("no calls were made");
        }

        if (errors != 0)
        {
            failures.Add(string.Create(CultureInfo.InvariantCulture, $"{errors} errors"));
        }

        MemorySample? start = samples.FirstOrDefault(s => s.Seconds >= config.WarmupSeconds);
        MemorySample? end = samples.Count > 0 ? samples[^1] : null;
        if (start is null || end is null || ReferenceEquals(start, end) || end.Seconds <= start.Seconds)
        {
            failures.Add("fewer than two memory samples after the warm-up: the run was too short to judge");
            return new SoakVerdict(false, criterion, start, end, failures);
        }

        double heapLimit = start.RetainedHeapBytes * config.GrowthLimit + config.HeapAllowanceBytes;
        if (end.RetainedHeapBytes > heapLimit)
        {
            failures.Add(string.Create(CultureInfo.InvariantCulture,
                $"retained heap grew from {start.RetainedHeapBytes / 1048576.0:0.0} MB to {end.RetainedHeapBytes / 1048576.0:0.0} MB (limit {heapLimit / 1048576.0:0.0} MB)"));
        }

        if (end.OpenFds > start.OpenFds + config.FdAllowance)
        {
            failures.Add(string.Create(CultureInfo.InvariantCulture, $"open descriptors grew from {start.OpenFds} to {end.OpenFds} (limit {start.OpenFds + config.FdAllowance})"));
        }

        return new SoakVerdict(failures.Count == 0, criterion, start, end, failures);
    }
}
