using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Latency.Soak;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Latency;

/// <summary>One measured cell: latency percentiles (merged HDR histogram), calls/s, and each side's CPU and allocations per call.</summary>
public sealed record LatencyResult(
    LatencyCell Cell,
    string Series,
    long Calls,
    double Seconds,
    Percentiles Latency,
    IReadOnlyList<SpectrumPoint> Spectrum,
    PerCallCost Client,
    PerCallCost? Server,
    string HistogramFile,
    string? Note)
{
    public double CallsPerSecond => Calls / Math.Max(1e-9, Seconds);
}

/// <summary>A cell that did not run: <c>cannot work</c> (with why) or <c>failed</c> (with the error).</summary>
public sealed record NotRunCell(LatencyCell Cell, string Series, string Status, string Reason);

/// <summary>Where and how the latency run was made.</summary>
public sealed record LatencyEnvironment(
    DateTimeOffset StartedUtc,
    string Preset,
    string CommandLine,
    string Machine,
    string OperatingSystem,
    string Runtime,
    int ProcessorCount,
    string Pinning,
    string Server,
    string Client,
    string Remote,
    string LoadModels,
    string CostMethod);

/// <summary>The soak's outcome: what the clients did, the server's samples, and the verdict.</summary>
public sealed record SoakReport(SoakConfig Config, SoakClientResult Clients, IReadOnlyList<MemorySample> Samples, SoakVerdict Verdict);

/// <summary>Everything a latency run produced: the source of results.json and the other writers.</summary>
public sealed record LatencyReport(
    LatencyEnvironment Environment,
    LatencyConfig Config,
    IReadOnlyList<LatencyResult> Cells,
    IReadOnlyList<NotRunCell> NotRun,
    OverheadMeasurement? Overhead,
    SoakReport? Soak);

/// <summary>Series names: how a cell differs from the base configuration.</summary>
public static class SeriesNames
{
    public static string Of(LatencyCell cell, BaseCell b)
    {
        var parts = new List<string>();
        void Differs<T>(string name, T value, T baseValue)
        {
            if (!EqualityComparer<T>.Default.Equals(value, baseValue))
            {
                parts.Add($"{name}={value}");
            }
        }

        Differs("scope", cell.Scope, b.Scope);
        Differs("binding", cell.Binding, b.Binding);
        Differs("security", cell.Security, b.Security);
        Differs("instancing", cell.Instancing, b.Instancing);
        Differs("call", cell.CallMode, b.CallMode);
        Differs("serializer", cell.Serializer, b.Serializer);
        Differs("data", cell.Data, b.Data);
        Differs("transfer", cell.Transfer, b.Transfer);
        Differs("load", cell.Load, b.Load);
        return parts.Count == 0 ? "base" : string.Join(", ", parts);
    }
}
