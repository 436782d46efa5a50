using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>What the driver asks the latency client to measure: one cell, against these endpoints (null: the client's in-process host).</summary>
public sealed record LatencyCellSpec(LatencyCell Cell, IReadOnlyDictionary<string, string>? Endpoints, CellTiming Timing, LatencyConfigLoads Loads);

/// <summary>What the client measured of one cell (its own side; the driver adds the server's costs).</summary>
public sealed record LatencyCellMeasurement(long Calls, double Seconds, Percentiles Latency, IReadOnlyList<SpectrumPoint> Spectrum, ProcessStats Client, string Histogram);

/// <summary>The harness's own cost: the empty measuring loop and a Direct no-op call (Ping) through the same worker path.</summary>
public sealed record OverheadMeasurement(Percentiles EmptyLoop, Percentiles DirectPing);

/// <summary>The soak's client side: how many clients, how long, the DataSet size, and where the server is.</summary>
public sealed record SoakSpec(IReadOnlyDictionary<string, string> Endpoints, int Clients, double Seconds, int Size);

/// <summary>What the soak's clients did: calls per kind, errors (exceptions and content mismatches) with the first few messages, latency per kind.</summary>
public sealed record SoakClientResult(
    double Seconds,
    long PlainCalls,
    long SurrogateCalls,
    long Errors,
    IReadOnlyList<string> FirstErrors,
    Percentiles PlainLatency,
    Percentiles SurrogateLatency);
