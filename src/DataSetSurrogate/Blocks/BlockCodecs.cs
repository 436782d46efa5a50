using System.IO.Compression;
using K4os.Compression.LZ4;

namespace Surrogate.Blocks;

/// <summary>
/// One-shot compression and decompression of one block with each codec, into caller-owned buffers: the one
/// implementation behind the compressing message encoders (DataSetSurrogate.Compression) and the payload's
/// compressed row blocks. Compression
/// reports failure when the output would not fit (the caller then sends the block raw); decompression reports failure
/// unless the input decodes to exactly the destination's length. Zstd contexts are pooled; Brotli and LZ4 use their
/// one-shot span APIs; the DEFLATE family has no span API in .NET 10, so each call creates zlib-ng's stream state.
/// </summary>
internal static class BlockCodecs
{
    /// <summary>Compresses <paramref name="source"/> into <paramref name="destination"/>; false when it does not fit.</summary>
    public static bool TryCompress(BlockCodec codec, int level, ReadOnlySpan<byte> source, ArraySegment<byte> destination, out int written)
    {
        switch (codec)
        {
            case BlockCodec.Deflate or BlockCodec.GZip or BlockCodec.ZLib:
                return TryCompressZLib(codec, level, source, destination, out written);
            case BlockCodec.Brotli:
                return BrotliEncoder.TryCompress(source, destination, out written, level, BrotliWindow(source.Length));
            case BlockCodec.Zstd:
                return ZstdContexts.TryCompress(level, source, destination, out written);
            case BlockCodec.Lz4:
                written = LZ4Codec.Encode(source, destination, (LZ4Level)level);
                if (written > 0)
                {
                    return true;
                }

                written = 0;
                return false;
            default:
                throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec.");
        }
    }

    /// <summary>
    /// Decompresses <paramref name="source"/> into <paramref name="destination"/>; true only when it decodes without
    /// error to exactly <paramref name="destination"/>'s length. Never writes past the destination.
    /// </summary>
    public static bool TryDecompress(BlockCodec codec, ArraySegment<byte> source, Span<byte> destination)
    {
        switch (codec)
        {
            case BlockCodec.Deflate or BlockCodec.GZip or BlockCodec.ZLib:
                return TryDecompressZLib(codec, source, destination);
            case BlockCodec.Brotli:
                return BrotliDecoder.TryDecompress(source, destination, out int brotli) && brotli == destination.Length;
            case BlockCodec.Zstd:
                return ZstdContexts.TryDecompress(source, destination);
            case BlockCodec.Lz4:
                return LZ4Codec.Decode(source, destination) == destination.Length;
            default:
                throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec.");
        }
    }

    /// <summary>
    /// The most a block of <paramref name="stored"/> compressed bytes can honestly expand to, for the codecs whose format
    /// bounds it (DEFLATE: 1032:1, LZ4: 255:1), so a header claiming more is refused before anything is allocated;
    /// <see cref="long.MaxValue"/> for Brotli and zstd, which only the size limit bounds.
    /// </summary>
    public static long MaxExpansion(BlockCodec codec, int stored) => codec switch
    {
        BlockCodec.Deflate or BlockCodec.GZip or BlockCodec.ZLib => (stored * 1032L) + 1024,
        BlockCodec.Lz4 => (stored * 256L) + 1024,
        _ => long.MaxValue,
    };

    /// <summary>Brotli's window for a block of <paramref name="length"/> bytes: no larger than the block needs.</summary>
    private static int BrotliWindow(int length) => Math.Clamp(64 - (int)ulong.LeadingZeroCount((ulong)Math.Max(length, 1)) + 1, 10, 22);

    private static bool TryCompressZLib(BlockCodec codec, int level, ReadOnlySpan<byte> source, ArraySegment<byte> destination, out int written)
    {
        // A fixed-size MemoryStream refuses to grow: that refusal is "does not fit", and it stops the compressor early.
        using var output = new MemoryStream(destination.Array!, destination.Offset, destination.Count, writable: true);
        try
        {
            var options = new ZLibCompressionOptions { CompressionLevel = level };
            using (Stream compressor = codec switch
            {
                BlockCodec.Deflate => new DeflateStream(output, options, leaveOpen: true),
                BlockCodec.GZip => new GZipStream(output, options, leaveOpen: true),
                _ => new ZLibStream(output, options, leaveOpen: true),
            })
            {
                compressor.Write(source);
            }

            written = (int)output.Position;
            return true;
        }
        catch (NotSupportedException)
        {
            written = 0;
            return false;
        }
    }

    private static bool TryDecompressZLib(BlockCodec codec, ArraySegment<byte> source, Span<byte> destination)
    {
        using var input = new MemoryStream(source.Array!, source.Offset, source.Count, writable: false);
        using Stream decompressor = codec switch
        {
            BlockCodec.Deflate => new DeflateStream(input, CompressionMode.Decompress),
            BlockCodec.GZip => new GZipStream(input, CompressionMode.Decompress),
            _ => new ZLibStream(input, CompressionMode.Decompress),
        };
        try
        {
            int filled = decompressor.ReadAtLeast(destination, destination.Length, throwOnEndOfStream: false);
            // One more byte out means the data is longer than its header says.
            return filled == destination.Length && decompressor.ReadByte() < 0;
        }
        catch (InvalidDataException)
        {
            return false;
        }
    }
}
