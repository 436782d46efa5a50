using ProtoBuf;
using Surrogate.Wire;

namespace Surrogate.Blocks;

/// <summary>
/// The reader's side of compressed row blocks, one per payload. Before anything is decompressed, a block's declared
/// raw length must exceed its data's length, stay within <see cref="CompressedBlock.MaxExpansion"/> times it, and keep
/// the payload (its compressed blocks counted at their raw length) within <see cref="SurrogateOptions.MaxTotalBytes"/>;
/// decompression then writes into exactly that many bytes and must fill them.
/// </summary>
internal sealed class BlockInflater
{
    private const string Known = "1 (Deflate), 3 (Brotli), 4 (Zstd) and 6 (Lz4)";
    private byte[] _stored = [];
    private byte[] _raw = [];

    /// <summary>What the payload's compressed blocks added when decompressed (raw minus stored bytes), so far.</summary>
    public long Expansion { get; private set; }

    /// <summary>
    /// Reads a compressed block's fields (the reader has just read the codec's field header) and returns the raw
    /// block's body, valid until the next call. <paramref name="payloadBytes"/> is the payload's length read so far.
    /// </summary>
    public ReadOnlyMemory<byte> Inflate(ref ProtoReader.State state, SurrogateOptions options, long payloadBytes)
    {
        var id = state.ReadInt64();
        if (id is not ((long)RowBlockCodec.Deflate or (long)RowBlockCodec.Brotli or (long)RowBlockCodec.Zstd or (long)RowBlockCodec.Lz4))
        {
            Throw.Invalid($"A row block is compressed with codec {id}, which this reader does not know; it reads codecs {Known}.");
        }

        var codec = (RowBlockCodec)id;
        if (state.ReadFieldHeader() != BlockField.RawLength || state.WireType != WireType.Varint)
        {
            Throw.Invalid($"A {codec} row block does not give its raw length after its codec.");
        }

        var raw = state.ReadInt64();
        if (state.ReadFieldHeader() != BlockField.Compressed || state.WireType != WireType.String)
        {
            Throw.Invalid($"A {codec} row block has no compressed data after its raw length.");
        }

        var stored = ProtoRead.BytesInto(ref state, ref _stored, (int)Math.Min(int.MaxValue, options.MaxTotalBytes), $"{codec} row block data");
        if (state.ReadFieldHeader() > 0)
        {
            Throw.Invalid($"A {codec} row block holds fields after its compressed data.");
        }

        if (raw <= stored || raw > int.MaxValue)
        {
            Throw.Invalid($"A {codec} row block of {stored} bytes declares a raw length of {raw}; it must be longer than the data and fit in one array.");
        }

        if (raw > (long)stored * CompressedBlock.MaxExpansion)
        {
            Throw.Invalid($"A {codec} row block of {stored} bytes declares {raw} raw bytes, more than {CompressedBlock.MaxExpansion} times its size; it is refused before decompressing.");
        }

        var total = payloadBytes + Expansion + (raw - stored);
        if (total > options.MaxTotalBytes)
        {
            Throw.Limit("payload bytes (compressed row blocks at their raw length)", total, options.MaxTotalBytes, nameof(SurrogateOptions.MaxTotalBytes));
        }

        Expansion += raw - stored;
        var length = (int)raw;
        if (_raw.Length < length)
        {
            _raw = new byte[length];
        }

        if (!Decompress(codec, new ArraySegment<byte>(_stored, 0, stored), _raw.AsSpan(0, length)))
        {
            Throw.Invalid($"A {codec} row block is corrupt or truncated: its {stored} bytes do not decompress to the {raw} bytes it declares.");
        }

        return _raw.AsMemory(0, length);
    }

    private static bool Decompress(RowBlockCodec codec, ArraySegment<byte> stored, Span<byte> raw)
    {
        try
        {
            return BlockCodecs.TryDecompress((BlockCodec)codec, stored, raw);
        }
        catch (Exception ex) when (ex is InvalidDataException or InvalidOperationException or ArgumentException or IndexOutOfRangeException)
        {
            // The codecs report damage by their own exceptions too; any of them means the block is not what it claims.
            return false;
        }
    }
}
