using System.Diagnostics;
using HdrHistogram;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>Per-call latency in an HdrHistogram (3 significant digits), recorded in Stopwatch ticks.</summary>
public sealed class LatencyRecorder
{
    private readonly LongHistogram histogram = new(TimeStamp.Minutes(10), 3);

    public long Count => histogram.TotalCount;

    public void Record(long elapsedTicks) => histogram.RecordValue(Math.Max(1, elapsedTicks));

    public LatencySummary Summarize() => new(
        Milliseconds(histogram.GetValueAtPercentile(50)),
        Milliseconds(histogram.GetValueAtPercentile(90)),
        Milliseconds(histogram.GetValueAtPercentile(99)),
        Milliseconds(histogram.GetMaxValue()),
        histogram.GetMean() * 1000.0 / Stopwatch.Frequency);

    /// <summary>Writes the percentile distribution (.hgrm, in milliseconds) that HdrHistogram's plotters read.</summary>
    public void WriteDistribution(TextWriter writer) =>
        histogram.OutputPercentileDistribution(writer, outputValueUnitScalingRatio: Stopwatch.Frequency / 1000.0);

    private static double Milliseconds(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;
}

/// <summary>Latency percentiles of one cell, in milliseconds.</summary>
public sealed record LatencySummary(double Median, double P90, double P99, double Max, double Mean);
