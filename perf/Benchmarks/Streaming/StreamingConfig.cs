using Surrogate.Perf.Benchmarks.Columns;

namespace Surrogate.Perf.Benchmarks.Streaming;

/// <summary>The shared configuration plus the peak-live-heap column.</summary>
public sealed class StreamingConfig : BenchmarkDotNet.Configs.ManualConfig
{
    /// <summary>Creates the configuration.</summary>
    public StreamingConfig()
    {
        Add(new BenchConfig());
        AddColumn(new PeakHeapColumn());
    }
}
