using System.Collections.Concurrent;
using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.Columns;

/// <summary>Median time or allocated bytes divided by the rows the case handles (the `Rows` or `Scenario` parameter).</summary>
public sealed class PerRowColumn : IColumn
{
    private static readonly ConcurrentDictionary<string, int> ScenarioRows = new();
    private readonly bool time;

    private PerRowColumn(bool time) => this.time = time;

    /// <summary>Median nanoseconds per row.</summary>
    public static PerRowColumn Time { get; } = new(time: true);

    /// <summary>Allocated bytes per row.</summary>
    public static PerRowColumn Allocated { get; } = new(time: false);

    /// <inheritdoc />
    public string Id => nameof(PerRowColumn) + (time ? "Time" : "Alloc");

    /// <inheritdoc />
    public string ColumnName => time ? "ns/row" : "Alloc B/row";

    /// <inheritdoc />
    public bool AlwaysShow => true;

    /// <inheritdoc />
    public ColumnCategory Category => ColumnCategory.Custom;

    /// <inheritdoc />
    public int PriorityInCategory => time ? 1 : 2;

    /// <inheritdoc />
    public bool IsNumeric => true;

    /// <inheritdoc />
    public UnitType UnitType => UnitType.Dimensionless;

    /// <inheritdoc />
    public string Legend => time ? "Median nanoseconds per row (all tables)" : "Allocated bytes per row (all tables)";

    /// <inheritdoc />
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    /// <inheritdoc />
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var report = summary[benchmarkCase];
        int rows = Rows(benchmarkCase);
        double? total = time ? report?.ResultStatistics?.Median : report?.GcStats.GetBytesAllocatedPerOperation(benchmarkCase);
        return total is { } value && rows > 0 ? (value / rows).ToString(time ? "N1" : "N0", CultureInfo.InvariantCulture) : "-";
    }

    /// <inheritdoc />
    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    /// <inheritdoc />
    public bool IsAvailable(Summary summary) => true;

    private static int Rows(BenchmarkCase benchmarkCase)
    {
        var items = benchmarkCase.Parameters.Items;
        if (items.FirstOrDefault(p => p.Name == "Rows")?.Value is int rows)
        {
            return rows;
        }

        return items.FirstOrDefault(p => p.Name == "Scenario")?.Value is string scenario
            ? ScenarioRows.GetOrAdd(scenario, static s => ScenarioCatalog.RowCount(ScenarioCatalog.Create(s)))
            : 0;
    }
}
