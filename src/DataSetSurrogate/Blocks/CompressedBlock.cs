using Surrogate.Wire;

namespace Surrogate.Blocks;

/// <summary>
/// The writer's side of compressed row blocks: a block written raw is compressed in place when that makes it smaller.
/// The compressed form holds the codec (field 7, first, so a reader that predates compressed blocks refuses it as a
/// block without its row count), the raw length (8) and the codec's output over the raw block's body (9).
/// </summary>
internal static class CompressedBlock
{
    /// <summary>
    /// The most a compressed block may expand: its raw length is at most this many times its data's length, so the
    /// rows, memory and work a payload can ask for stay proportional to its size. DEFLATE cannot exceed it (1032:1
    /// at most), LZ4 never reaches it (255:1); a zstd or Brotli block that would is written raw.
    /// </summary>
    public const int MaxExpansion = 1024;

    /// <summary>Blocks shorter than this are written raw without trying: the header would eat what little they save.</summary>
    public const int MinRawLength = 64;

    // Codec, raw length and data prefix: three tags, a one-byte codec and two varints of at most 5 bytes.
    private const int HeaderRoom = 16;

    /// <summary>
    /// Compresses the row block just written (<paramref name="length"/> bytes, ended by <paramref name="token"/>) with
    /// <paramref name="codec"/> and replaces it when the compressed form is smaller; otherwise leaves it raw.
    /// </summary>
    public static void TryCompress(ref WireWriter writer, MessageToken token, int length, RowBlockCodec codec, int level, ref byte[] scratch)
    {
        if (codec == RowBlockCodec.None || length < MinRawLength)
        {
            return;
        }

        var capacity = length - HeaderRoom;
        if (scratch.Length < length)
        {
            scratch = new byte[length];
        }

        var raw = writer.MessageBody(token, length);
        if (!BlockCodecs.TryCompress((BlockCodec)codec, level, raw, new ArraySegment<byte>(scratch, HeaderRoom, capacity), out var written)
            || (long)written * MaxExpansion < length)
        {
            return;
        }

        Span<byte> header = stackalloc byte[HeaderRoom];
        var used = 0;
        Varint(header, ref used, (BlockField.Codec << 3) | 0);
        Varint(header, ref used, (uint)codec);
        Varint(header, ref used, (BlockField.RawLength << 3) | 0);
        Varint(header, ref used, (uint)length);
        Varint(header, ref used, (BlockField.Compressed << 3) | 2);
        Varint(header, ref used, (uint)written);
        if (used + written >= length)
        {
            return;
        }

        header[..used].CopyTo(scratch.AsSpan(HeaderRoom - used));
        writer.ReplaceMessageBody(token, length, scratch.AsSpan(HeaderRoom - used, used + written));
    }

    private static void Varint(Span<byte> span, ref int at, uint value)
    {
        while (value >= 0x80)
        {
            span[at++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[at++] = (byte)value;
    }
}
