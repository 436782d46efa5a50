namespace Surrogate.Compression.Policies;

/// <summary>
/// One choice of the adaptive policy: raw, or a codec at a level, with the estimates it starts from before anything
/// is measured. <paramref name="EarlyAbort"/> is true for codecs that give up quickly on incompressible input (zstd,
/// LZ4); the others get an entropy check first.
/// </summary>
internal sealed record Arm(int Index, CompressionCodec? Codec, int Level, double PriorRatio, double PriorSecondsPerByte, bool EarlyAbort);

/// <summary>
/// The adaptive policy's ladder: raw and each allowed codec's levels, ordered from the cheapest to the dearest by
/// their prior compression speed, so the CPU guard can cap it by position. The priors are rough figures for SOAP
/// messages on one core of a current x64 machine (docs/compression.md); measurements replace them within a few
/// messages, and they only decide for choices never tried.
/// </summary>
internal static class ArmLadder
{
    // A compressed frame's checksum (XXH3) and its copy back into the frame's buffer, per byte of output.
    private const double FrameSecondsPerByte = 0.05e-9;

    // (level, ratio, compress MB/s) per codec.
    private static readonly (int Level, double Ratio, double MBps)[] Lz4 = [(0, 0.35, 400)];
    private static readonly (int Level, double Ratio, double MBps)[] Zstd = [(1, 0.25, 250), (3, 0.22, 120), (6, 0.20, 50), (9, 0.19, 30), (15, 0.18, 6)];
    private static readonly (int Level, double Ratio, double MBps)[] Brotli = [(1, 0.27, 120), (4, 0.21, 50), (9, 0.18, 6)];
    // DEFLATE (zlib-ng) from the codec sweep against zstd's: level 2 between zstd 1 and 3 in speed, 6 between 3 and 6
    // with a ratio near zstd 6's, 9 little better than 6 at a third of its speed.
    private static readonly (int Level, double Ratio, double MBps)[] ZLib = [(2, 0.27, 130), (6, 0.21, 60), (9, 0.20, 15)];

    /// <summary>
    /// Raw first, then the levels of <paramref name="codecs"/>, cheapest first: every level but those an earlier-listed
    /// codec's level matches or beats in both prior ratio and prior speed (DEFLATE 2 and 9 beside zstd). Such a level
    /// would rarely be chosen, yet as a neighbour it would take the explorations of the levels around it.
    /// </summary>
    public static Arm[] Build(IReadOnlyList<CompressionCodec> codecs)
    {
        var arms = new List<Arm> { new(0, null, 0, 1, 0, true) };
        foreach (CompressionCodec codec in codecs)
        {
            foreach ((int level, double ratio, double mbps) in Profile(codec))
            {
                var arm = new Arm(0, codec, level, ratio, 1 / (mbps * 1e6), codec is CompressionCodec.Zstd or CompressionCodec.Lz4);
                if (!arms.Exists(a => a.Codec is not null && a.Codec != codec && a.PriorRatio <= arm.PriorRatio && a.PriorSecondsPerByte <= arm.PriorSecondsPerByte))
                {
                    arms.Add(arm);
                }
            }
        }

        return Ordered(arms);
    }

    /// <summary><paramref name="arms"/> (raw among them) ordered cheapest first and numbered.</summary>
    public static Arm[] Ordered(IEnumerable<Arm> arms) =>
        [.. arms.OrderBy(a => a.PriorSecondsPerByte).Select((a, i) => a with { Index = i })];

    /// <summary>
    /// Decompression time per byte of output before any is measured, for a frame of <paramref name="ratio"/>: the
    /// output that came as literals (about the ratio's share) at one speed, the rest at another, plus the frame's
    /// checksum and copy. LZ4 and zstd copy literals (LZ4 decoded the grid's near-random data at 12 GB/s, its text at
    /// 4), DEFLATE and Brotli Huffman-decode them (DEFLATE 6 ran at 0.3 GB/s on the near-random data, 1.3 on the
    /// text): one speed for every ratio overstated LZ4's and zstd's work on barely compressible replies fourfold
    /// (docs/compression.md, "Decompression priors").
    /// </summary>
    public static double PriorDecodeSecondsPerByte(CompressionCodec codec, double ratio)
    {
        (double literal, double matched) = codec switch
        {
            CompressionCodec.Lz4 => (0.07e-9, 0.30e-9),
            CompressionCodec.Zstd => (0.12e-9, 1.0e-9),
            CompressionCodec.Brotli => (2.8e-9, 1.0e-9),
            _ => (3.6e-9, 0.4e-9),
        };
        double share = Math.Clamp(ratio, 0, 1);
        return FrameSecondsPerByte + (share * literal) + ((1 - share) * matched);
    }

    private static (int Level, double Ratio, double MBps)[] Profile(CompressionCodec codec) => codec switch
    {
        CompressionCodec.Lz4 => Lz4,
        CompressionCodec.Zstd => Zstd,
        CompressionCodec.Brotli => Brotli,
        _ => ZLib,
    };
}
