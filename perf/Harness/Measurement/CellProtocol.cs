namespace Surrogate.Perf.Harness.Measurement;

/// <summary>What the driver asks the client process to measure: one case against one scenario.</summary>
public sealed record CellSpec(
    string Case,
    string Scenario,
    string Address,
    double WarmupSeconds,
    int WarmupCalls,
    double MeasureSeconds,
    int MinCalls,
    int MaxCalls);

/// <summary>What the client process measured for one cell (its own side only).</summary>
public sealed record ClientCellResult(
    long Calls,
    double ElapsedSeconds,
    int Rows,
    LatencySummary Latency,
    double RequestBytesPerCall,
    double ResponseBytesPerCall,
    ProcessStats Client,
    string Histogram);

/// <summary>
/// Time and allocated bytes to build the scenario's tables from arrays in-process: no call bounds the surrogate below
/// it.
/// </summary>
public sealed record BuildFloor(string Scenario, int Rows, double MedianMilliseconds, double MinMilliseconds, int Iterations, long AllocatedBytes);

/// <summary>What the driver asks the client process to measure for a build floor.</summary>
public sealed record FloorSpec(string Scenario, double Seconds, int MinIterations);
