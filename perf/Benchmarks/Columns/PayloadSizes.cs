using BenchmarkDotNet.Running;
using Surrogate.Perf.Benchmarks.Codecs;
using Surrogate.Perf.Benchmarks.ReaderTypes;
using Surrogate.Perf.Benchmarks.Streaming;

namespace Surrogate.Perf.Benchmarks.Columns;

/// <summary>
/// Resolves a benchmark case's payload size in the host process from its method's <see cref="PayloadAttribute"/>
/// and its parameters, so the column works in-process and out-of-process alike.
/// </summary>
public static class PayloadSizes
{
    /// <summary>Payload bytes, or null when the method has no payload.</summary>
    public static long? Of(BenchmarkCase benchmarkCase)
    {
        var key = benchmarkCase.Descriptor.WorkloadMethod.GetCustomAttributes(typeof(PayloadAttribute), false)
            .Cast<PayloadAttribute>().FirstOrDefault()?.Key;
        if (key is null)
        {
            return null;
        }

        if (key == StreamingBenchmarks.PayloadKey)
        {
            return StreamingBenchmarks.PayloadSize((int)Parameter(benchmarkCase, "Rows"));
        }

        string scenario = (string)Parameter(benchmarkCase, "Scenario");
        if (key == Compression.BlockCompressionBenchmarks.PayloadKey)
        {
            return Compression.BlockCompressionBenchmarks.PayloadSize((string)Parameter(benchmarkCase, "Mode"), scenario);
        }

        return DiffGramPayloads.IsKey(key) ? DiffGramPayloads.Size(key, scenario) : CodecCatalog.PayloadSize(key, scenario);
    }

    /// <summary>The value of a named parameter of a case.</summary>
    public static object Parameter(BenchmarkCase benchmarkCase, string name) =>
        benchmarkCase.Parameters.Items.First(p => p.Name == name).Value;
}
