namespace Surrogate.Compression;

/// <summary>
/// How a compressing message encoder compresses and what it accepts. Immutable; the defaults are safe: zstd at
/// level 3, messages under 1 KiB sent raw, and a decompressed-size limit equal to the binding's
/// <c>MaxReceivedMessageSize</c>. <see cref="Adaptive"/> and <see cref="Rules2011"/> are the two other policies, ready
/// to use: <c>binding.WithCompression(CompressionOptions.Adaptive)</c>.
/// </summary>
public sealed partial record CompressionOptions
{
    /// <summary>The defaults: every message from <see cref="MinMessageSize"/> up compressed with zstd 3.</summary>
    public static CompressionOptions Default { get; } = new();

    /// <summary>
    /// The adaptive policy with its defaults: per message, raw or a codec and level (LZ4, zstd 1–15, DEFLATE 6) chosen from
    /// measured ratios, speeds, link rate and CPU load (docs/compression.md, "The adaptive encoder").
    /// </summary>
    public static CompressionOptions Adaptive { get; } = new() { Policy = CompressionPolicy.Adaptive };

    /// <summary>
    /// The 2011 DynamicEncoder's rules with its published settings: DEFLATE, nothing under 1 KiB, levels by size,
    /// off progressively above 70% CPU, off per action and size while recent ratios are worse than 0.7.
    /// </summary>
    public static CompressionOptions Rules2011 { get; } = new() { Policy = CompressionPolicy.Rules2011, Codec = CompressionCodec.Deflate };

    /// <summary>How the codec and level of each message are chosen. <see cref="CompressionPolicy.Fixed"/> by default.</summary>
    public CompressionPolicy Policy { get; init; } = CompressionPolicy.Fixed;

    /// <summary>
    /// The codec of the messages this end sends (<see cref="CompressionPolicy.Fixed"/> and
    /// <see cref="CompressionPolicy.Rules2011"/>; the adaptive policy uses <see cref="AdaptiveCodecs"/>). A receiver
    /// reads every codec, whatever its own.
    /// </summary>
    public CompressionCodec Codec { get; init; } = CompressionCodec.Zstd;

    /// <summary>
    /// The codec's level under <see cref="CompressionPolicy.Fixed"/>, or null for its default (<see cref="DefaultLevel"/>).
    /// <see cref="Levels"/> lists the levels offered: DEFLATE-family level 1 is not, since zlib-ng's level 1
    /// (deflate_quick) writes larger output than level 2 at about the same speed and expands small messages.
    /// </summary>
    public int? Level { get; init; }

    /// <summary>
    /// Encoded messages shorter than this many bytes are sent raw (with the 11-byte frame header only), since
    /// compressing them costs more than it saves; no policy looks at them. 1,024 by default (the 2011
    /// <c>NoCompressionLimit</c>); 0 lets the policy see every message.
    /// </summary>
    public int MinMessageSize { get; init; } = 1024;

    /// <summary>
    /// The most bytes a received message may have once decompressed, or null (the default) for the binding's
    /// <c>MaxReceivedMessageSize</c> at the time the binding was wrapped. Checked against each message's header before
    /// anything is allocated, and again while decompressing, so a compression bomb is refused with an error naming
    /// this limit.
    /// </summary>
    public long? MaxDecompressedSize { get; init; }

    /// <summary>
    /// What the adaptive policy optimises: <see cref="CompressionGoal.Auto"/> (the default) uses the latency model
    /// while this process has CPU to spare and one call at a time uses the link, and the throughput model once it is
    /// loaded or several calls in flight keep the link full.
    /// </summary>
    public CompressionGoal Goal { get; init; } = CompressionGoal.Auto;

    /// <summary>
    /// The codecs the adaptive policy chooses among, each at its own ladder of levels (LZ4 0; zstd 1, 3, 6, 9, 15;
    /// Brotli 1, 4, 9; DEFLATE family 2, 6, 9), less the levels a codec listed before matches or beats in both ratio
    /// and speed (DEFLATE 2 and 9 after zstd); raw is always a choice. LZ4, zstd and DEFLATE by default: DEFLATE 6
    /// writes fewer bytes than zstd 3 for messages of a few KB, faster than zstd 6 or 9 (an entropy check keeps it off
    /// incompressible data, which LZ4 and zstd give up on by themselves).
    /// </summary>
    public IReadOnlyList<CompressionCodec> AdaptiveCodecs { get; init; } = [CompressionCodec.Lz4, CompressionCodec.Zstd, CompressionCodec.Deflate];

    /// <summary>
    /// The share of messages (0–0.5) the adaptive policy sends with a neighbouring codec or level to keep its
    /// estimates fresh, two in a row per try (raw, a neighbour with nothing to time, one: half the share); 0.03 by
    /// default. Each key (action and size) also tries its neighbours at least every 5 s while it is in use.
    /// </summary>
    public double ExplorationRate { get; init; } = 0.03;

    /// <summary>
    /// The link's rate in bits per second: the starting estimate of the adaptive policy while it has measured nothing
    /// (1 Gbit/s by default), or the rate it uses throughout when <see cref="MeasureLink"/> is false.
    /// </summary>
    public long LinkBitsPerSecond { get; init; } = 1_000_000_000;

    /// <summary>
    /// Whether the adaptive policy measures the link from the transport's timings (true by default); false keeps
    /// <see cref="LinkBitsPerSecond"/> for a link whose rate is known.
    /// </summary>
    public bool MeasureLink { get; init; } = true;

    /// <summary>
    /// Whether the adaptive policy, while it measures the link, sends raw to a peer on this machine (a loopback
    /// address, a Unix domain socket) and leaves those messages out of its link estimate (true by default): they cross
    /// memory, where compressing costs more CPU than the copy it saves. False when the local peer forwards over a link
    /// (a sidecar proxy or relay), so its messages are priced like any other.
    /// </summary>
    public bool RawToLocalPeers { get; init; } = true;

    /// <summary>
    /// The smallest saving (0–0.9) for which the adaptive policy sends a compressed message rather than the raw one;
    /// 0.03 by default. The latency model raises it where decompressing would cost more than the bytes saved.
    /// </summary>
    public double MinSaving { get; init; } = 0.03;

    /// <summary>
    /// Process CPU use (share of all cores, 0–1) at or above which, held for 2 s, the adaptive policy steps down one
    /// level, and again every 2 s while it lasts (unless its model planned that load); 0.85 by default. 1 turns the
    /// guard off. Below it, a cap that holds the model back lifts as at the low watermark.
    /// </summary>
    public double CpuHighWatermark { get; init; } = 0.85;

    /// <summary>
    /// Process CPU use at or below which, held for 5 s, the adaptive policy steps back up one level; 0.60 by default.
    /// Below it, calls queued on the link measure the link's capacity; at or above it, with no capacity known, the
    /// policy takes the link to carry at least its current messages uncompressed (docs/compression.md).
    /// </summary>
    public double CpuLowWatermark { get; init; } = 0.60;

    /// <summary>
    /// <see cref="CompressionPolicy.Rules2011"/>: the message sizes from which the codec's normal and then its
    /// maximum level are used (fast level below the first); 32 KiB and 512 KiB by default. The levels are the
    /// codec's fast, normal and maximum tiers (<see cref="Tiers"/>).
    /// </summary>
    public IReadOnlyList<int> LevelThresholds { get; init; } = [32 * 1024, 512 * 1024];

    /// <summary>
    /// <see cref="CompressionPolicy.Rules2011"/>: process CPU use above which compression is switched off
    /// progressively (none left at 100%); 0.70 by default (the 2011 <c>CPUDisableLimit</c>).
    /// </summary>
    public double CpuDisableLimit { get; init; } = 0.70;

    /// <summary>
    /// <see cref="CompressionPolicy.Rules2011"/>: an action's messages of one size class go uncompressed while the mean
    /// ratio (compressed / original) of its last 10 compressed ones is above this; 0.70 by default (the 2011
    /// <c>CompressionRatioDisableLimit</c>). One message in 32 is still compressed to notice a change.
    /// </summary>
    public double CompressionRatioDisableLimit { get; init; } = 0.70;

    /// <summary>
    /// Where the encoder records each decision on a message at or above <see cref="MinMessageSize"/> (chosen codec and
    /// level, sizes, reason, the estimates behind it), or null for none. One log may serve several bindings.
    /// </summary>
    public CompressionDecisionLog? DecisionLog { get; init; }

    /// <summary>The level the fixed policy uses: <see cref="Level"/>, or the codec's default.</summary>
    public int EffectiveLevel => Level ?? DefaultLevel(Codec);

    /// <summary>The levels offered for <paramref name="codec"/>, fastest first.</summary>
    public static IReadOnlyList<int> Levels(CompressionCodec codec) => codec switch
    {
        CompressionCodec.Deflate or CompressionCodec.GZip or CompressionCodec.ZLib => ZLibLevels,
        CompressionCodec.Brotli => BrotliLevels,
        CompressionCodec.Zstd => ZstdLevels,
        CompressionCodec.Lz4 => Lz4Levels,
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec."),
    };

    /// <summary>The level used when <see cref="Level"/> is null: DEFLATE family 6, Brotli 4, zstd 3, LZ4 0.</summary>
    public static int DefaultLevel(CompressionCodec codec) => codec switch
    {
        CompressionCodec.Deflate or CompressionCodec.GZip or CompressionCodec.ZLib => 6,
        CompressionCodec.Brotli => 4,
        CompressionCodec.Zstd => 3,
        CompressionCodec.Lz4 => 0,
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec."),
    };

    /// <summary>
    /// The fast, normal and maximum levels of <paramref name="codec"/> that <see cref="CompressionPolicy.Rules2011"/>
    /// uses: DEFLATE family 2, 6, 9; Brotli 1, 4, 9; zstd 1, 3, 9; LZ4 0, 3, 9.
    /// </summary>
    public static IReadOnlyList<int> Tiers(CompressionCodec codec) => codec switch
    {
        CompressionCodec.Deflate or CompressionCodec.GZip or CompressionCodec.ZLib => ZLibTiers,
        CompressionCodec.Brotli => BrotliTiers,
        CompressionCodec.Zstd => ZstdTiers,
        CompressionCodec.Lz4 => Lz4Tiers,
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec."),
    };

    private static readonly int[] ZLibLevels = [2, 3, 4, 5, 6, 7, 8, 9];
    private static readonly int[] BrotliLevels = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    private static readonly int[] ZstdLevels = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
    private static readonly int[] Lz4Levels = [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    private static readonly int[] ZLibTiers = [2, 6, 9];
    private static readonly int[] BrotliTiers = [1, 4, 9];
    private static readonly int[] ZstdTiers = [1, 3, 9];
    private static readonly int[] Lz4Tiers = [0, 3, 9];
}
