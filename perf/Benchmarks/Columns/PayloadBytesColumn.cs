using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Surrogate.Perf.Benchmarks.Columns;

/// <summary>Bytes on the wire beside the times.</summary>
public sealed class PayloadBytesColumn : IColumn
{
    /// <inheritdoc />
    public string Id => nameof(PayloadBytesColumn);

    /// <inheritdoc />
    public string ColumnName => "Payload";

    /// <inheritdoc />
    public bool AlwaysShow => true;

    /// <inheritdoc />
    public ColumnCategory Category => ColumnCategory.Custom;

    /// <inheritdoc />
    public int PriorityInCategory => 0;

    /// <inheritdoc />
    public bool IsNumeric => true;

    /// <inheritdoc />
    public UnitType UnitType => UnitType.Size;

    /// <inheritdoc />
    public string Legend => "Payload size in bytes (what travels on the wire for that codec and scenario)";

    /// <inheritdoc />
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    /// <inheritdoc />
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
        PayloadSizes.Of(benchmarkCase) is { } bytes ? bytes.ToString("N0", System.Globalization.CultureInfo.InvariantCulture) + " B" : "-";

    /// <inheritdoc />
    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    /// <inheritdoc />
    public bool IsAvailable(Summary summary) => true;
}
