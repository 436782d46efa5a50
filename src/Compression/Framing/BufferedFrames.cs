using System.Buffers;
using Surrogate.Blocks;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Framing;

/// <summary>
/// Buffered messages in and out of frames, with the buffers of the WCF BufferManager the encoder is handed: one a
/// message, as without compression, with codecs working in scratch arrays of the shared ArrayPool. The inner encoder
/// writes <see cref="Reserve"/> bytes past the transport's offset, so a raw frame's header goes in front of the
/// message without a copy.
/// </summary>
internal static class BufferedFrames
{
    /// <summary>The bytes an inner message must leave free in front of it: the larger (compressed) frame header.</summary>
    public const int Reserve = CompressedFrame.HeaderSize + CompressedFrame.CompressedBlockHeaderSize;

    private const int RawHeader = CompressedFrame.HeaderSize + CompressedFrame.RawBlockHeaderSize;

    /// <summary>
    /// Frames <paramref name="message"/> (written by the inner encoder at <paramref name="messageOffset"/> + <see cref="Reserve"/>
    /// or later): compressed when the settings' policy chooses a codec and the result saves what the choice asks,
    /// raw otherwise. The returned segment starts at or after <paramref name="messageOffset"/>; <paramref name="message"/>'s
    /// buffer is returned to the pool unless the frame is in it. <paramref name="localPeer"/>: the peer is on this machine.
    /// </summary>
    public static ArraySegment<byte> Encode<TPool>(TPool pool, ArraySegment<byte> message, int messageOffset, CompressionSettings settings, string? action = null, bool localPeer = false)
        where TPool : IBufferPool => Encode(pool, message, messageOffset, settings, action, localPeer, out _);

    /// <summary>
    /// As <see cref="Encode{TPool}(TPool, ArraySegment{byte}, int, CompressionSettings, string?, bool)"/>, with the
    /// policy's choice in <paramref name="sent"/> where the message went as chosen (default where a codec's result
    /// went raw): a round trip's time is that choice's (<see cref="RoundTripClock"/>).
    /// </summary>
    public static ArraySegment<byte> Encode<TPool>(
        TPool pool, ArraySegment<byte> message, int messageOffset, CompressionSettings settings, string? action, bool localPeer, out CompressionChoice sent)
        where TPool : IBufferPool
    {
        CompressionChoice choice = settings.Choose(action, message, message.Count, localPeer);
        bool timed = CompressionSettings.Timed(choice);
        long started = CompressionSettings.CodecTime(timed);
        // The compressed frame must come out smaller than the raw one, and by the share the choice asks.
        int capacity = Math.Min(message.Count - 1, (int)(message.Count * choice.MaxRatio)) - (Reserve - RawHeader);
        if (choice.Codec is { } chosen && capacity > 0)
        {
            // Compressed into a scratch array and copied back into the message's own buffer: a second buffer from
            // the transport's pool would double what each reply holds there, and the pool (512 KB by default)
            // answers that with a fresh large-object array a message.
            byte[] scratch = ArrayPool<byte>.Shared.Rent(capacity);
            try
            {
                if (BlockCodecs.TryCompress((BlockCodec)chosen, choice.Level, message, new ArraySegment<byte>(scratch, 0, capacity), out int written))
                {
                    uint checksum = CompressedFrame.Checksum(message);
                    byte[] output = message.Array!;
                    if (messageOffset + Reserve + written > output.Length)
                    {
                        output = pool.Take(messageOffset + Reserve + written);
                        pool.Return(message.Array!);
                    }

                    Span<byte> header = output.AsSpan(messageOffset);
                    CompressedFrame.WriteHeader(header, chosen);
                    CompressedFrame.WriteBlockHeader(header[CompressedFrame.HeaderSize..], message.Count, written, checksum);
                    scratch.AsSpan(0, written).CopyTo(header[Reserve..]);
                    var frame = new ArraySegment<byte>(output, messageOffset, Reserve + written);
                    settings.ReportSent(choice, new CompressionOutcome(true, chosen, choice.Level, message.Count, frame.Count, CompressionSettings.CodecTime(timed) - started));
                    sent = choice;
                    return frame;
                }
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(scratch);
            }
        }

        ArraySegment<byte> raw = FrameRaw(pool, message, messageOffset);
        settings.ReportSent(choice, new CompressionOutcome(true, null, 0, message.Count, raw.Count, CompressionSettings.CodecTime(timed) - started));
        sent = choice.Codec is null ? choice : default;
        return raw;
    }

    /// <summary>
    /// The message inside <paramref name="frame"/>: a slice of it for a raw frame, else in the frame's own buffer when
    /// that can hold it, else in a pool buffer (and the frame's buffer goes back to the pool). Every block header is
    /// checked, and the total against the decompressed-size limit, before anything is allocated.
    /// </summary>
    /// <exception cref="MessageCompressionException">Not a frame, truncated, corrupt, or over the limit.</exception>
    public static ArraySegment<byte> Decode<TPool>(TPool pool, ArraySegment<byte> frame, CompressionSettings settings)
        where TPool : IBufferPool
    {
        ReadOnlySpan<byte> bytes = frame;
        CompressionCodec? codec = CompressedFrame.ReadHeader(bytes);
        bool timed = settings.TimesDecode(codec);
        long started = CompressionSettings.CodecTime(timed);
        long total = 0;
        int blocks = 0;
        bool raw = true;
        for (int at = CompressedFrame.HeaderSize; at < bytes.Length; blocks++)
        {
            (int length, int stored, int headerSize) = BlockAt(bytes, at, codec, total, settings.MaxDecompressedSize);
            at += headerSize + stored;
            total += length;
            raw &= stored == length;
        }

        if (blocks == 0 && codec is not null)
        {
            throw CompressedFrame.Truncated("the frame names a codec but has no block");
        }

        if (blocks == 1 && raw)
        {
            settings.ReportReceived(new CompressionOutcome(false, codec, 0, total, frame.Count, CompressionSettings.CodecTime(timed) - started));
            return frame.Slice(RawHeader);
        }

        // A frame whose buffer can hold the message gets it back, through a scratch array: a second buffer of the
        // same size from the transport's pool would miss there as on the sending side.
        bool inPlace = frame.Array!.Length >= total;
        byte[] output = inPlace ? ArrayPool<byte>.Shared.Rent((int)total) : pool.Take((int)total);
        try
        {
            int written = 0;
            for (int at = CompressedFrame.HeaderSize; at < bytes.Length;)
            {
                (int length, int stored, int headerSize) = BlockAt(bytes, at, codec, written, settings.MaxDecompressedSize);
                uint checksum = headerSize == CompressedFrame.CompressedBlockHeaderSize ? CompressedFrame.ReadChecksum(bytes[at..]) : 0;
                CompressedFrame.DecodeBlock(codec, frame.Slice(at + headerSize, stored), output.AsSpan(written, length), checksum);
                at += headerSize + stored;
                written += length;
            }
        }
        catch
        {
            if (inPlace)
            {
                ArrayPool<byte>.Shared.Return(output);
            }
            else
            {
                pool.Return(output);
            }

            throw;
        }

        if (inPlace)
        {
            output.AsSpan(0, (int)total).CopyTo(frame.Array);
            ArrayPool<byte>.Shared.Return(output);
            output = frame.Array;
        }
        else
        {
            pool.Return(frame.Array);
        }

        settings.ReportReceived(new CompressionOutcome(false, codec, 0, total, frame.Count, CompressionSettings.CodecTime(timed) - started));
        return new ArraySegment<byte>(output, 0, (int)total);
    }

    private static (int Length, int Stored, int HeaderSize) BlockAt(ReadOnlySpan<byte> bytes, int at, CompressionCodec? codec, long decoded, int limit)
    {
        if (bytes.Length - at < CompressedFrame.RawBlockHeaderSize)
        {
            throw CompressedFrame.Truncated($"{bytes.Length - at} bytes where a block header should be");
        }

        (int length, int stored) = CompressedFrame.ReadBlockHeader(bytes.Slice(at, CompressedFrame.RawBlockHeaderSize), codec, decoded, limit);
        int headerSize = stored == length ? CompressedFrame.RawBlockHeaderSize : CompressedFrame.CompressedBlockHeaderSize;
        if ((long)bytes.Length - at - headerSize < stored)
        {
            throw CompressedFrame.Truncated($"a block of {stored} stored bytes has {Math.Max(0, bytes.Length - at - headerSize)}");
        }

        return (length, stored, headerSize);
    }

    /// <summary>A raw frame: the header and one raw block (none for an empty message) in front of the message.</summary>
    private static ArraySegment<byte> FrameRaw<TPool>(TPool pool, ArraySegment<byte> message, int messageOffset)
        where TPool : IBufferPool
    {
        int headerSize = message.Count == 0 ? CompressedFrame.HeaderSize : RawHeader;
        if (message.Offset - headerSize >= messageOffset)
        {
            WriteRawHeader(message.Array.AsSpan(message.Offset - headerSize, headerSize), message.Count);
            return new ArraySegment<byte>(message.Array!, message.Offset - headerSize, message.Count + headerSize);
        }

        // The inner encoder moved the message (a session encoder may, for its dictionary): copy it behind a header.
        byte[] output = pool.Take(messageOffset + headerSize + message.Count);
        WriteRawHeader(output.AsSpan(messageOffset, headerSize), message.Count);
        message.AsSpan().CopyTo(output.AsSpan(messageOffset + headerSize));
        pool.Return(message.Array!);
        return new ArraySegment<byte>(output, messageOffset, headerSize + message.Count);
    }

    private static void WriteRawHeader(Span<byte> header, int length)
    {
        CompressedFrame.WriteHeader(header, null);
        if (length > 0)
        {
            CompressedFrame.WriteBlockHeader(header[CompressedFrame.HeaderSize..], length, length, 0);
        }
    }
}
