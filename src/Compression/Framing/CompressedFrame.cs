using System.Buffers.Binary;
using System.IO.Hashing;
using Surrogate.Blocks;

namespace Surrogate.Compression.Framing;

/// <summary>
/// The frame every message of a compressing encoder travels in (docs/compression.md): a 3-byte header — magic 0xDC,
/// version 1, the frame's codec id (0 raw) — then blocks. A block is its decompressed length and stored length
/// (u32 little-endian each); a block stored shorter than its length is compressed and carries the low 32 bits of the
/// XXH3 hash of its decompressed bytes, one stored at its full length is raw. A buffered message is one block; a
/// streamed one is blocks of <see cref="StreamBlockSize"/>. The frame ends where the message ends.
/// </summary>
/// <remarks>0xDC can never start a message of the inner encoders: binary XML records stop at 0xBD, and text starts
/// with '&lt;', whitespace or a byte-order mark (0xEF, 0xFE, 0xFF).</remarks>
internal static class CompressedFrame
{
    public const byte Magic = 0xDC;
    public const byte Version = 1;
    public const byte RawCodec = 0;
    public const int HeaderSize = 3;
    public const int RawBlockHeaderSize = 8;
    public const int CompressedBlockHeaderSize = 12;
    public const int StreamBlockSize = 64 * 1024;

    public static void WriteHeader(Span<byte> destination, CompressionCodec? codec)
    {
        destination[0] = Magic;
        destination[1] = Version;
        destination[2] = codec is { } c ? (byte)c : RawCodec;
    }

    /// <summary>Writes a block header; a raw block when <paramref name="stored"/> equals <paramref name="length"/>.</summary>
    public static int WriteBlockHeader(Span<byte> destination, int length, int stored, uint checksum)
    {
        BinaryPrimitives.WriteInt32LittleEndian(destination, length);
        BinaryPrimitives.WriteInt32LittleEndian(destination[4..], stored);
        if (stored == length)
        {
            return RawBlockHeaderSize;
        }

        BinaryPrimitives.WriteUInt32LittleEndian(destination[8..], checksum);
        return CompressedBlockHeaderSize;
    }

    public static uint ReadChecksum(ReadOnlySpan<byte> header) => BinaryPrimitives.ReadUInt32LittleEndian(header[RawBlockHeaderSize..]);

    public static uint Checksum(ReadOnlySpan<byte> data) => (uint)XxHash3.HashToUInt64(data);

    /// <summary>The frame's codec (null: raw) from its 3-byte header.</summary>
    /// <exception cref="MessageCompressionException">Not a frame of this version, or an unknown codec.</exception>
    public static CompressionCodec? ReadHeader(ReadOnlySpan<byte> header)
    {
        if (header.Length < HeaderSize)
        {
            if (header.Length > 0 && header[0] != Magic)
            {
                throw NotAFrame(header[0]);
            }

            throw Truncated($"{header.Length} bytes, shorter than the {HeaderSize}-byte frame header");
        }

        if (header[0] != Magic)
        {
            throw NotAFrame(header[0]);
        }

        if (header[1] != Version)
        {
            throw new MessageCompressionException(
                $"The compressed message has frame version {header[1]}; this reader knows version {Version}. Update DataSetSurrogate.Compression on this end.");
        }

        byte codec = header[2];
        return codec == RawCodec
            ? null
            : Enum.IsDefined((CompressionCodec)codec)
                ? (CompressionCodec)codec
                : throw new MessageCompressionException($"The compressed message names codec id {codec}, which this reader does not know.");
    }

    /// <summary>
    /// Reads and checks the first 8 bytes of a block header: lengths in range, raw blocks only in a raw frame, the size
    /// limit, the codec's expansion bound. A compressed block's 4-byte checksum follows them.
    /// </summary>
    public static (int Length, int Stored) ReadBlockHeader(ReadOnlySpan<byte> header, CompressionCodec? codec, long decodedSoFar, int limit)
    {
        int length = BinaryPrimitives.ReadInt32LittleEndian(header);
        int stored = BinaryPrimitives.ReadInt32LittleEndian(header[4..]);
        if (length <= 0 || stored <= 0 || stored > length)
        {
            throw Corrupt($"a block header declares {length} bytes stored in {stored}");
        }

        if (decodedSoFar + length > limit)
        {
            throw OverLimit(decodedSoFar + length, limit);
        }

        if (stored == length)
        {
            return (length, stored);
        }

        if (codec is not { } compressed)
        {
            throw Corrupt("a block of a raw frame is marked compressed");
        }

        if (length > BlockCodecs.MaxExpansion((BlockCodec)compressed, stored))
        {
            throw Corrupt($"a {compressed} block of {stored} bytes cannot decompress to the {length} bytes its header declares");
        }

        return (length, stored);
    }

    /// <summary>Decodes one block into <paramref name="destination"/> (its declared length) and verifies it.</summary>
    public static void DecodeBlock(CompressionCodec? codec, ArraySegment<byte> stored, Span<byte> destination, uint checksum)
    {
        if (stored.Count == destination.Length)
        {
            stored.AsSpan().CopyTo(destination);
            return;
        }

        if (!BlockCodecs.TryDecompress((BlockCodec)codec!.Value, stored, destination))
        {
            throw Corrupt($"{codec} data did not decompress to the {destination.Length} bytes its block header declares");
        }

        if (Checksum(destination) != checksum)
        {
            throw Corrupt("a block's decompressed bytes do not match its checksum");
        }
    }

    public static MessageCompressionException Truncated(string detail) =>
        new($"The compressed message is truncated: {detail}.");

    public static MessageCompressionException Corrupt(string detail) =>
        new($"The compressed message is corrupt: {detail}.");

    public static MessageCompressionException OverLimit(long size, int limit) =>
        new($"The compressed message decompresses to at least {size} bytes, more than the limit of {limit} bytes " +
            "(CompressionOptions.MaxDecompressedSize, by default the binding's MaxReceivedMessageSize); it was refused before decompressing past the limit.");

    public static MessageCompressionException NotAFrame(byte first) =>
        new($"The message is not a compressed frame: it starts with 0x{first:X2}, not 0x{Magic:X2}" +
            (first == 0x56 ? ", as a plain binary-encoded SOAP message does" : first is (byte)'<' or 0xEF or 0xFE or 0xFF ? ", as a plain text-encoded SOAP message does" : string.Empty) +
            ". The peer's binding has no compressing encoder (DataSetSurrogate.Compression): configure both ends with WithCompression().");
}
