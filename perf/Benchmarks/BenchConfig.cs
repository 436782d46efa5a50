using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Reports;
using Surrogate.Perf.Benchmarks.Columns;

namespace Surrogate.Perf.Benchmarks;

/// <summary>
/// Shared configuration: allocations, categories each with its own baseline, payload bytes and per-row figures
/// beside the times, GitHub markdown output. Jobs come from the command line (`--job short`, `--job dry`).
/// </summary>
public sealed class BenchConfig : ManualConfig
{
    /// <summary>Creates the configuration.</summary>
    public BenchConfig()
    {
        AddDiagnoser(MemoryDiagnoser.Default);
        AddColumn(CategoriesColumn.Default, new PayloadBytesColumn(), PerRowColumn.Time, PerRowColumn.Allocated);
        AddColumn(StatisticColumn.Median);
        AddExporter(MarkdownExporter.GitHub);
        AddLogicalGroupRules(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams);
        WithOrderer(new BenchmarkDotNet.Order.DefaultOrderer(BenchmarkDotNet.Order.SummaryOrderPolicy.Declared));
        WithSummaryStyle(SummaryStyle.Default.WithRatioStyle(RatioStyle.Value));
    }
}
