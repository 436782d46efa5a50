using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Surrogate.Compression;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Perf.Benchmarks.Compression;

/// <summary>
/// What deciding costs per message, without the codec: the settings' Choose and ReportSent as the framing calls them,
/// with a made-up outcome, for each policy, below the size floor (the fast path, which must not allocate) and above
/// it (the adaptive policy: key lookup, link and CPU estimates, the model over its ladder, the metrics' enabled checks,
/// estimate updates). The fixed policy is each category's baseline. The real process environment: the CPU sample
/// every 250 ms is part of the cost.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class PolicyBenchmarks
{
    private const string Below = "BelowFloor";
    private const string Above = "AboveFloor";
    private const string Action = "urn:bench/Orders/GetOrdersResponse";

    private readonly byte[] _small = new byte[512];
    private readonly byte[] _large = System.Text.Encoding.ASCII.GetBytes(BenchText.Orders(150_000));
    private CompressionSettings _fixed = null!;
    private CompressionSettings _adaptive = null!;
    private CompressionSettings _adaptiveDeflate = null!;
    private CompressionSettings _rules2011 = null!;

    [GlobalSetup]
    public void Setup()
    {
        _fixed = Settings(CompressionOptions.Default);
        _adaptive = Settings(CompressionOptions.Adaptive with { LinkBitsPerSecond = 100_000_000, MeasureLink = false });
        // DEFLATE has no early abort: every compressed choice samples the message's entropy first.
        _adaptiveDeflate = Settings(CompressionOptions.Adaptive with { LinkBitsPerSecond = 100_000_000, MeasureLink = false, AdaptiveCodecs = [CompressionCodec.Deflate] });
        _rules2011 = Settings(CompressionOptions.Rules2011);
    }

    [Benchmark(Baseline = true), BenchmarkCategory(Below)]
    public int Fixed_below_floor() => Decide(_fixed, _small);

    [Benchmark, BenchmarkCategory(Below)]
    public int Adaptive_below_floor() => Decide(_adaptive, _small);

    [Benchmark(Baseline = true), BenchmarkCategory(Above)]
    public int Fixed_above_floor() => Decide(_fixed, _large);

    [Benchmark, BenchmarkCategory(Above)]
    public int Adaptive_above_floor() => Decide(_adaptive, _large);

    [Benchmark, BenchmarkCategory(Above)]
    public int Adaptive_above_floor_with_entropy_check() => Decide(_adaptiveDeflate, _large);

    [Benchmark, BenchmarkCategory(Above)]
    public int Rules2011_above_floor() => Decide(_rules2011, _large);

    private static int Decide(CompressionSettings settings, byte[] message)
    {
        CompressionChoice choice = settings.Choose(Action, message, message.Length);
        long wire = choice.Codec is null ? message.Length + 11 : (message.Length / 4) + 15;
        settings.ReportSent(choice, new CompressionOutcome(true, choice.Codec, choice.Level, message.Length, wire, message.Length / 50));
        return choice.Level;
    }

    private static CompressionSettings Settings(CompressionOptions options) => CompressionSettings.From(options, 64 << 20);
}
