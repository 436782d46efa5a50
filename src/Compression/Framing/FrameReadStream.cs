using System.Buffers;
using System.Diagnostics;

namespace Surrogate.Compression.Framing;

/// <summary>
/// Reads a framed message from the transport's stream as the inner encoder asks for bytes: block by block, each
/// header checked (and the running total against the decompressed-size limit) before its buffers are rented, each
/// compressed block verified against its checksum. Reads any frame, streamed or buffered. The end of the transport's
/// stream at a block boundary ends the message; anywhere else it is a truncated frame.
/// </summary>
internal sealed class FrameReadStream(Stream input, CompressionSettings settings) : Stream
{
    private readonly byte[] _header = new byte[CompressedFrame.CompressedBlockHeaderSize];
    private byte[]? _block;
    private int _blockLength;
    private int _position;
    private bool _started;
    private bool _ended;
    private CompressionCodec? _codec;
    private bool _timed;
    private long _length;
    private long _wireLength;
    private long _ticks;

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => _length - (_blockLength - _position); set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) =>
        ReadCoreAsync(buffer.AsMemory(offset, count), async: false, CancellationToken.None).AsTask().GetAwaiter().GetResult();

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadCoreAsync(buffer.AsMemory(offset, count), async: true, cancellationToken).AsTask();

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        ReadCoreAsync(buffer, async: true, cancellationToken);

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            ReleaseBlock();
            input.Dispose();
        }

        base.Dispose(disposing);
    }

    private async ValueTask<int> ReadCoreAsync(Memory<byte> buffer, bool async, CancellationToken cancellationToken)
    {
        if (buffer.IsEmpty)
        {
            return 0;
        }

        while (_position == _blockLength)
        {
            if (_ended || !await NextBlockAsync(async, cancellationToken).ConfigureAwait(false))
            {
                return 0;
            }
        }

        int count = Math.Min(buffer.Length, _blockLength - _position);
        _block.AsSpan(_position, count).CopyTo(buffer.Span);
        _position += count;
        return count;
    }

    /// <summary>Reads the next block into <see cref="_block"/>; false at the end of the message.</summary>
    private async ValueTask<bool> NextBlockAsync(bool async, CancellationToken cancellationToken)
    {
        if (!_started)
        {
            int got = await ReadAsync(_header.AsMemory(0, CompressedFrame.HeaderSize), async, cancellationToken).ConfigureAwait(false);
            _codec = CompressedFrame.ReadHeader(_header.AsSpan(0, got));
            _timed = settings.TimesDecode(_codec);
            _started = true;
            _wireLength = got;
        }

        int read = await ReadAsync(_header.AsMemory(0, CompressedFrame.RawBlockHeaderSize), async, cancellationToken).ConfigureAwait(false);
        if (read == 0)
        {
            _ended = true;
            settings.ReportReceived(new CompressionOutcome(false, _codec, 0, _length, _wireLength, _ticks));
            return false;
        }

        if (read < CompressedFrame.RawBlockHeaderSize)
        {
            throw CompressedFrame.Truncated($"the stream ended {read} bytes into a block header");
        }

        (int length, int stored) = CompressedFrame.ReadBlockHeader(_header.AsSpan(0, CompressedFrame.RawBlockHeaderSize), _codec, _length, settings.MaxDecompressedSize);
        uint checksum = 0;
        if (stored < length)
        {
            if (await ReadAsync(_header.AsMemory(CompressedFrame.RawBlockHeaderSize, 4), async, cancellationToken).ConfigureAwait(false) < 4)
            {
                throw CompressedFrame.Truncated("the stream ended inside a block header");
            }

            checksum = CompressedFrame.ReadChecksum(_header);
        }

        ReleaseBlock();
        _block = ArrayPool<byte>.Shared.Rent(length);
        byte[] storedBytes = stored == length ? _block : ArrayPool<byte>.Shared.Rent(stored);
        try
        {
            int got = await ReadAsync(storedBytes.AsMemory(0, stored), async, cancellationToken).ConfigureAwait(false);
            if (got < stored)
            {
                throw CompressedFrame.Truncated($"the stream ended {got} bytes into a block of {stored}");
            }

            long started = CompressionSettings.CodecTime(_timed);
            if (stored < length)
            {
                CompressedFrame.DecodeBlock(_codec, new ArraySegment<byte>(storedBytes, 0, stored), _block.AsSpan(0, length), checksum);
            }

            _ticks += CompressionSettings.CodecTime(_timed) - started;
        }
        finally
        {
            if (storedBytes != _block)
            {
                ArrayPool<byte>.Shared.Return(storedBytes);
            }
        }

        _wireLength += stored + (stored < length ? CompressedFrame.CompressedBlockHeaderSize : CompressedFrame.RawBlockHeaderSize);
        _length += length;
        _blockLength = length;
        _position = 0;
        return true;
    }

    /// <summary>Fills <paramref name="buffer"/> from the transport's stream unless it ends first; returns the bytes read.</summary>
    private async ValueTask<int> ReadAsync(Memory<byte> buffer, bool async, CancellationToken cancellationToken) => async
        ? await input.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken).ConfigureAwait(false)
        : input.ReadAtLeast(buffer.Span, buffer.Length, throwOnEndOfStream: false);

    private void ReleaseBlock()
    {
        if (_block is not null)
        {
            ArrayPool<byte>.Shared.Return(_block);
            _block = null;
            _blockLength = _position = 0;
        }
    }
}
