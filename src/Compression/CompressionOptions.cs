namespace Surrogate.Compression;

/// <summary>
/// How a compressing message encoder compresses and what it accepts. Immutable; the defaults are safe: zstd at
/// level 3, messages under 1 KiB sent raw, and a decompressed-size limit equal to the binding's
/// <c>MaxReceivedMessageSize</c>.
/// </summary>
public sealed record CompressionOptions
{
    /// <summary>The defaults.</summary>
    public static CompressionOptions Default { get; } = new();

    /// <summary>The codec of the messages this end sends. A receiver reads every codec, whatever its own.</summary>
    public CompressionCodec Codec { get; init; } = CompressionCodec.Zstd;

    /// <summary>
    /// The codec's level, or null for its default (<see cref="DefaultLevel"/>). <see cref="Levels"/> lists the
    /// levels offered: DEFLATE-family level 1 is not, since zlib-ng's level 1 (deflate_quick) writes larger output
    /// than level 2 at about the same speed and expands small messages.
    /// </summary>
    public int? Level { get; init; }

    /// <summary>
    /// Encoded messages shorter than this many bytes are sent raw (with the 11-byte frame header only), since
    /// compressing them costs more than it saves. 1,024 by default; 0 compresses every message.
    /// </summary>
    public int MinMessageSize { get; init; } = 1024;

    /// <summary>
    /// The most bytes a received message may have once decompressed, or null (the default) for the binding's
    /// <c>MaxReceivedMessageSize</c> at the time the binding was wrapped. Checked against each message's header before
    /// anything is allocated, and again while decompressing, so a compression bomb is refused with an error naming
    /// this limit.
    /// </summary>
    public long? MaxDecompressedSize { get; init; }

    /// <summary>The level the encoder uses: <see cref="Level"/>, or the codec's default.</summary>
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

    private static readonly int[] ZLibLevels = [2, 3, 4, 5, 6, 7, 8, 9];
    private static readonly int[] BrotliLevels = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    private static readonly int[] ZstdLevels = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
    private static readonly int[] Lz4Levels = [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

    /// <summary>Throws when a setting is out of range.</summary>
    /// <exception cref="ArgumentException">A setting is out of range; the message names it.</exception>
    public void Validate()
    {
        if (!Enum.IsDefined(Codec))
        {
            throw new ArgumentException($"CompressionOptions.Codec {(int)Codec} is not a codec.", nameof(Codec));
        }

        if (Level is int level && !Levels(Codec).Contains(level))
        {
            string hint = level == 1 && DefaultLevel(Codec) == 6
                ? " Level 1 is zlib-ng's deflate_quick, which expands small messages; use 2."
                : string.Empty;
            throw new ArgumentException(
                $"CompressionOptions.Level {level} is not offered for {Codec}; use one of {string.Join(", ", Levels(Codec))}.{hint}", nameof(Level));
        }

        if (MinMessageSize < 0)
        {
            throw new ArgumentException($"CompressionOptions.MinMessageSize must not be negative (was {MinMessageSize}).", nameof(MinMessageSize));
        }

        if (MaxDecompressedSize is long max && (max < 1 || max > int.MaxValue))
        {
            throw new ArgumentException(
                $"CompressionOptions.MaxDecompressedSize must be between 1 and {int.MaxValue} (was {max}): a buffered message is one array.", nameof(MaxDecompressedSize));
        }
    }
}
