using System.Diagnostics;
using HdrHistogram;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>Latency percentiles of a cell in milliseconds, from one (merged) HDR histogram; never averaged across workers.</summary>
public sealed record Percentiles(long Count, double P50, double P90, double P99, double P999, double Max, double Mean);

/// <summary>One point of a percentile spectrum: the latency at or below which <c>Percentile</c> % of calls completed.</summary>
public sealed record SpectrumPoint(double Percentile, double Milliseconds);

/// <summary>HDR histograms in Stopwatch ticks (3 significant digits, up to ten minutes): creation, merging, percentiles, .hgrm.</summary>
public static class Histograms
{
    public static readonly double[] SpectrumLevels = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100];

    public static LongHistogram Create() => new(TimeStamp.Minutes(10), 3);

    /// <summary>The sum of <paramref name="parts"/>: every recorded value of every worker, as if recorded in one histogram.</summary>
    public static LongHistogram Merge(IEnumerable<LongHistogram> parts)
    {
        LongHistogram merged = Create();
        foreach (LongHistogram part in parts)
        {
            merged.Add(part);
        }

        return merged;
    }

    public static Percentiles Summarize(LongHistogram histogram) => histogram.TotalCount == 0
        ? new Percentiles(0, 0, 0, 0, 0, 0, 0)
        : new Percentiles(
            histogram.TotalCount,
            Ms(histogram.GetValueAtPercentile(50)),
            Ms(histogram.GetValueAtPercentile(90)),
            Ms(histogram.GetValueAtPercentile(99)),
            Ms(histogram.GetValueAtPercentile(99.9)),
            Ms(histogram.GetMaxValue()),
            histogram.GetMean() * 1000.0 / Stopwatch.Frequency);

    public static IReadOnlyList<SpectrumPoint> Spectrum(LongHistogram histogram) => histogram.TotalCount == 0
        ? []
        : [.. SpectrumLevels.Select(p => new SpectrumPoint(p, Ms(p == 100 ? histogram.GetMaxValue() : histogram.GetValueAtPercentile(p))))];

    /// <summary>The percentile distribution HdrHistogram's plotters read, in milliseconds.</summary>
    public static string Hgrm(LongHistogram histogram)
    {
        using var writer = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
        histogram.OutputPercentileDistribution(writer, outputValueUnitScalingRatio: Stopwatch.Frequency / 1000.0);
        return writer.ToString();
    }

    public static void Record(LongHistogram histogram, long ticks) => histogram.RecordValue(Math.Clamp(ticks, 1, histogram.HighestTrackableValue));

    private static double Ms(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;
}
