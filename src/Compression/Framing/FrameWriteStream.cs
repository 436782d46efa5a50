using System.Buffers;
using System.Diagnostics;
using Surrogate.Blocks;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Framing;

/// <summary>
/// Frames a streamed message on the fly: the inner encoder writes into it, and it sends blocks of
/// <see cref="CompressedFrame.StreamBlockSize"/> to the transport's stream as they fill, each compressed or (when that
/// does not make it smaller) raw. A message that ends below the size floor goes as a raw frame. Call
/// <see cref="CompleteAsync(CancellationToken)"/> (or <see cref="Complete"/>) after the message; disposing returns the pooled buffers and
/// leaves the transport's stream open. The time each write to the transport takes goes to the policy: a write that
/// blocks shows the link's pace.
/// </summary>
internal sealed class FrameWriteStream(Stream output, CompressionSettings settings, string? action = null, bool localPeer = false) : Stream
{
    private readonly byte[] _block = ArrayPool<byte>.Shared.Rent(CompressedFrame.StreamBlockSize);
    private byte[]? _scratch;
    private int _filled;
    private bool _started;
    private CompressionChoice _choice = CompressionChoice.BelowFloor;
    private long _length;
    private long _wireLength;
    private long _ticks;
    private bool _compressed;

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => _length; set => throw new NotSupportedException(); }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        while (!buffer.IsEmpty)
        {
            buffer = buffer[Fill(buffer)..];
            if (_filled == CompressedFrame.StreamBlockSize)
            {
                WriteBlockAsync(async: false, CancellationToken.None).AsTask().GetAwaiter().GetResult();
            }
        }
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        while (!buffer.IsEmpty)
        {
            buffer = buffer[Fill(buffer.Span)..];
            if (_filled == CompressedFrame.StreamBlockSize)
            {
                await WriteBlockAsync(async: true, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Partial blocks stay until they fill or the message ends; flushing reaches the transport's stream only.</summary>
    public override void Flush() => output.Flush();

    public override Task FlushAsync(CancellationToken cancellationToken) => output.FlushAsync(cancellationToken);

    /// <summary>Sends what is left of the message.</summary>
    public void Complete() => CompleteCoreAsync(async: false, CancellationToken.None).AsTask().GetAwaiter().GetResult();

    /// <summary>Sends what is left of the message.</summary>
    public ValueTask CompleteAsync(CancellationToken cancellationToken = default) => CompleteCoreAsync(async: true, cancellationToken);

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            ArrayPool<byte>.Shared.Return(_block);
            if (_scratch is not null)
            {
                ArrayPool<byte>.Shared.Return(_scratch);
                _scratch = null;
            }
        }

        base.Dispose(disposing);
    }

    /// <summary>Copies what fits into the current block; returns how many bytes it took.</summary>
    private int Fill(ReadOnlySpan<byte> buffer)
    {
        int take = Math.Min(buffer.Length, CompressedFrame.StreamBlockSize - _filled);
        buffer[..take].CopyTo(_block.AsSpan(_filled));
        _filled += take;
        _length += take;
        return take;
    }

    private async ValueTask CompleteCoreAsync(bool async, CancellationToken cancellationToken)
    {
        if (_filled > 0 || !_started)
        {
            await WriteBlockAsync(async, cancellationToken).ConfigureAwait(false);
        }

        settings.ReportSent(_choice, new CompressionOutcome(true, _compressed ? _choice.Codec : null, _choice.Level, _length, _wireLength, _ticks));
    }

    private async ValueTask WriteBlockAsync(bool async, CancellationToken cancellationToken)
    {
        if (!_started)
        {
            // The first block decides: a message that ended below the floor goes raw, as a buffered one would.
            _choice = settings.Choose(action, _block.AsSpan(0, _filled), _filled < CompressedFrame.StreamBlockSize ? _length : long.MaxValue, localPeer);
        }

        bool timed = CompressionSettings.Timed(_choice);
        long started = CompressionSettings.CodecTime(timed);

        // _scratch holds what goes out first: the frame header (first block only), the block header, and a
        // compressed payload; a raw block's payload is sent from _block as it is.
        _scratch ??= ArrayPool<byte>.Shared.Rent(CompressedFrame.HeaderSize + CompressedFrame.CompressedBlockHeaderSize + CompressedFrame.StreamBlockSize);
        int used = 0;
        if (!_started)
        {
            CompressedFrame.WriteHeader(_scratch, _choice.Codec);
            used = CompressedFrame.HeaderSize;
            _started = true;
        }

        ReadOnlyMemory<byte> rawPayload = ReadOnlyMemory<byte>.Empty;
        if (_filled > 0)
        {
            ReadOnlySpan<byte> block = _block.AsSpan(0, _filled);
            int payloadAt = used + CompressedFrame.CompressedBlockHeaderSize;
            int capacity = Math.Min(_filled - 1, (int)(_filled * _choice.MaxRatio)) - (CompressedFrame.CompressedBlockHeaderSize - CompressedFrame.RawBlockHeaderSize);
            if (_choice.Codec is { } codec && capacity > 0
                && BlockCodecs.TryCompress((BlockCodec)codec, _choice.Level, block, new ArraySegment<byte>(_scratch, payloadAt, capacity), out int written))
            {
                _compressed = true;
                CompressedFrame.WriteBlockHeader(_scratch.AsSpan(used), _filled, written, CompressedFrame.Checksum(block));
                used = payloadAt + written;
            }
            else
            {
                used += CompressedFrame.WriteBlockHeader(_scratch.AsSpan(used), _filled, _filled, 0);
                rawPayload = _block.AsMemory(0, _filled);
            }
        }

        _ticks += CompressionSettings.CodecTime(timed) - started;
        _wireLength += used + rawPayload.Length;
        _filled = 0;
        long writing = Stopwatch.GetTimestamp();
        // Transports refuse empty writes (the WCF client's connection stream throws on one).
        if (async)
        {
            await output.WriteAsync(_scratch.AsMemory(0, used), cancellationToken).ConfigureAwait(false);
            if (!rawPayload.IsEmpty)
            {
                await output.WriteAsync(rawPayload, cancellationToken).ConfigureAwait(false);
            }
        }
        else
        {
            output.Write(_scratch, 0, used);
            if (!rawPayload.IsEmpty)
            {
                output.Write(rawPayload.Span);
            }
        }

        // A peer on this machine is not on the link the policy measures.
        if (!localPeer)
        {
            settings.Policy.TransportWrite(used + rawPayload.Length, Stopwatch.GetTimestamp() - writing);
        }
    }
}
