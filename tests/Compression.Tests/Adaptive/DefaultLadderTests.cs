using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>The adaptive policy's ladder as built from <see cref="CompressionOptions.AdaptiveCodecs"/>, and what DEFLATE in the default one is for.</summary>
public sealed class DefaultLadderTests
{
    public static TheoryData<CompressionCodec[], string> Ladders => new()
    {
        { [CompressionCodec.Lz4, CompressionCodec.Zstd, CompressionCodec.Deflate], "raw lz4-0 zstd-1 zstd-3 deflate-6 zstd-6 zstd-9 zstd-15" },
        { [CompressionCodec.Deflate], "raw deflate-2 deflate-6 deflate-9" },
        { [CompressionCodec.Deflate, CompressionCodec.Zstd], "raw zstd-1 deflate-2 zstd-3 deflate-6 zstd-6 zstd-9 deflate-9 zstd-15" },
        { [CompressionCodec.Zstd, CompressionCodec.Brotli], "raw zstd-1 zstd-3 zstd-6 zstd-9 zstd-15" },
    };

    [Theory]
    [MemberData(nameof(Ladders))]
    public void A_level_an_earlier_listed_codec_matches_in_ratio_and_speed_is_left_out(CompressionCodec[] codecs, string expected) =>
        Assert.Equal(expected, string.Join(' ', ArmLadder.Build(codecs).Select(a => PolicyWorld.Name(a.Codec, a.Level))));

    [Fact]
    public void The_default_ladder_is_lz4_zstd_and_deflate() =>
        Assert.Equal([CompressionCodec.Lz4, CompressionCodec.Zstd, CompressionCodec.Deflate], CompressionOptions.Adaptive.AdaptiveCodecs);

    [Theory]
    [InlineData(CompressionCodec.Lz4, 0.25, 0.92, 0.29, 0.13)]
    [InlineData(CompressionCodec.Zstd, 0.14, 0.91, 0.98, 0.24)]
    [InlineData(CompressionCodec.Deflate, 0.12, 0.91, 0.83, 3.37)]
    [InlineData(CompressionCodec.Brotli, 0.16, 0.92, 1.37, 2.78)]
    public void Decompression_priors_follow_what_the_codecs_measured_on_text_and_near_random_data(
        CompressionCodec codec, double textRatio, double randomRatio, double textNs, double randomNs)
    {
        // ns per byte of output for the grid's simple and complex 16 KB messages, decoded alone on one core with the
        // frame's checksum and copy (zstd 1, DEFLATE 6, Brotli 1; docs/compression.md, "Decompression priors"): LZ4 and zstd copy literals, so
        // barely compressible frames decode fastest; DEFLATE and Brotli Huffman-decode them, so those decode slowest.
        Assert.InRange(ArmLadder.PriorDecodeSecondsPerByte(codec, textRatio) * 1e9 / textNs, 0.9, 1.1);
        Assert.InRange(ArmLadder.PriorDecodeSecondsPerByte(codec, randomRatio) * 1e9 / randomNs, 0.9, 1.1);
    }

    [Fact]
    public void Small_messages_on_a_full_100_Mbit_link_get_deflate_6_where_it_writes_the_fewest_bytes_the_cpu_keeps_up_with()
    {
        // The grid's simple 16 KB replies: DEFLATE 6 writes 0.125 of them at 100 MB/s, zstd 3 0.14, zstd 9 0.118 at
        // 45 MB/s, which two cores cannot keep up with at the link's rate.
        const int length = 16_384;
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 100_000_000, goal: CompressionGoal.Throughput);
        var world = new PolicyWorld(policy, env, SmallSimple) { LinkBytesPerSecond = 12.5e6 };
        Assert.Equal("deflate-6", AdaptivePolicyTests.Oracle(policy, 12.5e6, CompressionGoal.Throughput, length, world: SmallSimple));
        List<CompressionChoice> choices = world.Send(length, 400);
        Assert.All(choices.Skip(100).Where(c => c.Reason == CompressionDecisionReason.Model), c => Assert.Equal("deflate-6", PolicyWorld.Name(c)));
    }

    [Fact]
    public void On_a_slow_link_it_finds_a_level_beyond_the_neighbours_from_what_the_levels_around_it_measure()
    {
        // The same replies on a link measured down from the 1 Gbit/s prior to 1.5 Mbit/s: the key climbs the ladder one
        // explored step at a time to DEFLATE 6, and zstd 6 above it writes more. zstd 15 at its prior (0.18, SOAP-like
        // text) looks far worse than DEFLATE 6's measured 0.125; scaled from zstd 6's measured 0.135 it comes out ahead,
        // and once tried, measures so.
        const int length = 16_384;
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_000_000_000, measureLink: true, goal: CompressionGoal.Throughput);
        var world = new PolicyWorld(policy, env, SmallSimple) { LinkBytesPerSecond = 187_500 };
        string oracle = AdaptivePolicyTests.Oracle(policy, 187_500, CompressionGoal.Throughput, length, world: SmallSimple);
        Assert.Equal("zstd-15", oracle);
        List<CompressionChoice> choices = world.Send(length, 1500);
        Assert.All(choices.Skip(1000).Where(c => c.Reason == CompressionDecisionReason.Model), c => Assert.Equal(oracle, PolicyWorld.Name(c)));
    }

    private static CodecBehaviour SmallSimple(CompressionCodec codec, int level) => (codec, level) switch
    {
        (CompressionCodec.Lz4, _) => new(0.255, 1 / 600e6),
        (CompressionCodec.Zstd, 1) => new(0.145, 1 / 250e6),
        (CompressionCodec.Zstd, 3) => new(0.14, 1 / 220e6),
        (CompressionCodec.Zstd, 6) => new(0.135, 1 / 70e6),
        (CompressionCodec.Zstd, 9) => new(0.118, 1 / 45e6),
        (CompressionCodec.Zstd, _) => new(0.115, 1 / 8e6),
        (CompressionCodec.Deflate, 6) => new(0.125, 1 / 100e6),
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "not on the default ladder"),
    };
}
