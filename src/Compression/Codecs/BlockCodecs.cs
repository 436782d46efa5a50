using System.IO.Compression;
using K4os.Compression.LZ4;

namespace Surrogate.Compression.Codecs;

/// <summary>
/// One-shot compression and decompression of one block with each codec, into caller-owned buffers. Compression
/// reports failure when the output would not fit (the caller then sends the block raw); decompression reports failure
/// unless the input decodes to exactly the destination's length. Zstd contexts are pooled; Brotli and LZ4 use their
/// one-shot span APIs; the DEFLATE family has no span API in .NET 10, so each call creates zlib-ng's stream state.
/// </summary>
internal static class BlockCodecs
{
    /// <summary>Compresses <paramref name="source"/> into <paramref name="destination"/>; false when it does not fit.</summary>
    public static bool TryCompress(CompressionCodec codec, int level, ReadOnlySpan<byte> source, ArraySegment<byte> destination, out int written)
    {
        switch (codec)
        {
            case CompressionCodec.Deflate or CompressionCodec.GZip or CompressionCodec.ZLib:
                return TryCompressZLib(codec, level, source, destination, out written);
            case CompressionCodec.Brotli:
                return BrotliEncoder.TryCompress(source, destination, out written, level, BrotliWindow(source.Length));
            case CompressionCodec.Zstd:
                return ZstdContexts.TryCompress(level, source, destination, out written);
            case CompressionCodec.Lz4:
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
    public static bool TryDecompress(CompressionCodec codec, ArraySegment<byte> source, Span<byte> destination)
    {
        switch (codec)
        {
            case CompressionCodec.Deflate or CompressionCodec.GZip or CompressionCodec.ZLib:
                return TryDecompressZLib(codec, source, destination);
            case CompressionCodec.Brotli:
                return BrotliDecoder.TryDecompress(source, destination, out int brotli) && brotli == destination.Length;
            case CompressionCodec.Zstd:
                return ZstdContexts.TryDecompress(source, destination);
            case CompressionCodec.Lz4:
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
    public static long MaxExpansion(CompressionCodec codec, int stored) => codec switch
    {
        CompressionCodec.Deflate or CompressionCodec.GZip or CompressionCodec.ZLib => (stored * 1032L) + 1024,
        CompressionCodec.Lz4 => (stored * 256L) + 1024,
        _ => long.MaxValue,
    };

    /// <summary>Brotli's window for a block of <paramref name="length"/> bytes: no larger than the block needs.</summary>
    private static int BrotliWindow(int length) => Math.Clamp(64 - (int)ulong.LeadingZeroCount((ulong)Math.Max(length, 1)) + 1, 10, 22);

    private static bool TryCompressZLib(CompressionCodec codec, int level, ReadOnlySpan<byte> source, ArraySegment<byte> destination, out int written)
    {
        // A fixed-size MemoryStream refuses to grow: that refusal is "does not fit", and it stops the compressor early.
        using var output = new MemoryStream(destination.Array!, destination.Offset, destination.Count, writable: true);
        try
        {
            var options = new ZLibCompressionOptions { CompressionLevel = level };
            using (Stream compressor = codec switch
            {
                CompressionCodec.Deflate => new DeflateStream(output, options, leaveOpen: true),
                CompressionCodec.GZip => new GZipStream(output, options, leaveOpen: true),
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

    private static bool TryDecompressZLib(CompressionCodec codec, ArraySegment<byte> source, Span<byte> destination)
    {
        using var input = new MemoryStream(source.Array!, source.Offset, source.Count, writable: false);
        using Stream decompressor = codec switch
        {
            CompressionCodec.Deflate => new DeflateStream(input, CompressionMode.Decompress),
            CompressionCodec.GZip => new GZipStream(input, CompressionMode.Decompress),
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
