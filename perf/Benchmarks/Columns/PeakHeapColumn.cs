using System.Collections.Concurrent;
using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Surrogate.Perf.Benchmarks.Columns;

/// <summary>Peak live heap growth during one run of the case (see <see cref="PeakHeapProbe"/>).</summary>
public sealed class PeakHeapColumn : IColumn
{
    private readonly ConcurrentDictionary<BenchmarkCase, long> peaks = new();

    /// <inheritdoc />
    public string Id => nameof(PeakHeapColumn);

    /// <inheritdoc />
    public string ColumnName => "Peak live heap";

    /// <inheritdoc />
    public bool AlwaysShow => true;

    /// <inheritdoc />
    public ColumnCategory Category => ColumnCategory.Custom;

    /// <inheritdoc />
    public int PriorityInCategory => 3;

    /// <inheritdoc />
    public bool IsNumeric => true;

    /// <inheritdoc />
    public UnitType UnitType => UnitType.Size;

    /// <inheritdoc />
    public string Legend => "Largest heap size after a GC during one run, minus the live heap before it (sampled)";

    /// <inheritdoc />
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    /// <inheritdoc />
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
        (peaks.GetOrAdd(benchmarkCase, PeakHeapProbe.Measure) / (1024.0 * 1024.0)).ToString("N1", CultureInfo.InvariantCulture) + " MB";

    /// <inheritdoc />
    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    /// <inheritdoc />
    public bool IsAvailable(Summary summary) => true;
}
