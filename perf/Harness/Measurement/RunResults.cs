namespace Surrogate.Perf.Harness.Measurement;

/// <summary>One measured cell: a case against a scenario, both sides' costs per call, and ratios to the baseline.</summary>
public sealed record CellResult
{
    public required string Case { get; init; }
    public required string CaseLabel { get; init; }

    /// <summary><c>reply</c> or <c>both</c> (LoadDataSet: the DataSet travels to the service and back).</summary>
    public string Direction { get; init; } = "reply";
    public required string Scenario { get; init; }
    public required int Rows { get; init; }
    public required long Calls { get; init; }
    public required double Seconds { get; init; }
    public required LatencySummary Latency { get; init; }
    public double CallsPerSecond => Calls / Seconds;
    public required double RequestBytes { get; init; }
    public required double ResponseBytes { get; init; }
    public required PerCallCost Client { get; init; }
    public required PerCallCost Server { get; init; }

    /// <summary>Baseline cell this one is compared with (plain DataSet over NetTcp binary, same scenario).</summary>
    public string? BaselineScenario { get; init; }
    public double? TimeRatio { get; init; }
    public double? BytesRatio { get; init; }
    public double? CpuRatio { get; init; }
    public double? AllocRatio { get; init; }
    public string? HistogramFile { get; init; }
}

/// <summary>Where and how a run was made; printed at the top of every output file.</summary>
public sealed record RunEnvironment(
    DateTimeOffset StartedUtc,
    string Profile,
    string CommandLine,
    string Machine,
    string OperatingSystem,
    string Runtime,
    int ProcessorCount,
    string GcMode,
    string Pinning,
    string Network,
    string Server,
    string LoadModel,
    string BytesMethod,
    string CostMethod,
    LinkSettings? Link);

/// <summary>The shaped link of a <c>--link</c> run: client and server in separate network namespaces over veth.</summary>
public sealed record LinkSettings(
    string Rate,
    long BitsPerSecond,
    long BurstBytes,
    string Method,
    string Directions,
    string ClientAddress,
    string ServerAddress);

/// <summary>A trace's top frames and the shares that say where DataSet time goes.</summary>
public sealed record TraceSummary(
    string Process,
    string Case,
    string Scenario,
    string NetTraceFile,
    string? SpeedscopeFile,
    long Samples,
    long BusySamples,
    double DataSetXmlShare,
    double SurrogateShare,
    double DataSetXmlBusyShare,
    double SurrogateBusyShare,
    IReadOnlyList<FrameCost> TopInclusive,
    IReadOnlyList<FrameCost> TopExclusive);

/// <summary>A frame's share of a trace's thread-time samples.</summary>
public sealed record FrameCost(string Frame, double InclusivePercent, double ExclusivePercent);

/// <summary>Everything a run produced: the source of results.json, and of the other writers.</summary>
public sealed record RunReport(
    RunEnvironment Environment,
    IReadOnlyList<CellResult> Cells,
    IReadOnlyList<BuildFloor> Floors,
    IReadOnlyList<TraceSummary> Traces)
{
    /// <summary>Fills in the ratios: each cell against the baseline case of the same scenario (objects: rows-10000).</summary>
    public static IReadOnlyList<CellResult> WithRatios(IReadOnlyList<CellResult> cells, string baselineCase, string objectsScenario)
    {
        return cells.Select(cell =>
        {
            string scenario = cell.Scenario == objectsScenario ? "rows-10000" : cell.Scenario;
            CellResult? baseline = cells.FirstOrDefault(c => c.Case == baselineCase && c.Scenario == scenario);
            if (baseline is null)
            {
                return cell;
            }

            return cell with
            {
                BaselineScenario = scenario,
                TimeRatio = cell.Latency.Median / baseline.Latency.Median,
                BytesRatio = (cell.RequestBytes + cell.ResponseBytes) / (baseline.RequestBytes + baseline.ResponseBytes),
                CpuRatio = (cell.Client.CpuMilliseconds + cell.Server.CpuMilliseconds) / (baseline.Client.CpuMilliseconds + baseline.Server.CpuMilliseconds),
                AllocRatio = (cell.Client.AllocatedBytes + cell.Server.AllocatedBytes) / (baseline.Client.AllocatedBytes + baseline.Server.AllocatedBytes),
            };
        }).ToList();
    }
}
