using System.Buffers;

namespace Surrogate.Wire;

/// <summary>A growable <see cref="IBufferWriter{T}"/> over <see cref="ArrayPool{T}"/> arrays; dispose to return them.</summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>, IDisposable
{
    private byte[] _buffer;
    private int _start;
    private int _written;

    public PooledBufferWriter(int initialCapacity = 256) => _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);

    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(_start, _written - _start);

    public ReadOnlyMemory<byte> WrittenMemory => _buffer.AsMemory(_start, _written - _start);

    public int WrittenCount => _written - _start;

    public int Capacity => _buffer.Length;

    public void Advance(int count)
    {
        if ((uint)count > (uint)(_buffer.Length - _written))
        {
            throw new ArgumentOutOfRangeException(nameof(count));
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_written);
    }

    public void Clear() => _start = _written = 0;

    /// <summary>
    /// Returns what was written since the last take and starts a new segment after it, so a long-lived protobuf
    /// writer (flushed first) can keep appending without being recreated. The span is valid until the next write.
    /// </summary>
    public ReadOnlySpan<byte> TakeWritten()
    {
        var span = _buffer.AsSpan(_start, _written - _start);
        _start = _written;
        return span;
    }

    public void Dispose()
    {
        var buffer = _buffer;
        _buffer = [];
        _start = _written = 0;
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Ensure(int sizeHint)
    {
        var needed = Math.Max(sizeHint, 1);
        if (_buffer.Length - _written >= needed)
        {
            return;
        }

        Grow(needed);
    }

    // Only the current segment moves: everything before it has been taken already. Compacting only while the
    // segment is small against the buffer keeps the copying to a small fraction of what is written.
    private void Grow(int needed)
    {
        var pending = _written - _start;
        if (_start > 0 && _buffer.Length - pending >= needed && pending <= _buffer.Length / 8)
        {
            _buffer.AsSpan(_start, pending).CopyTo(_buffer);
            _start = 0;
            _written = pending;
            return;
        }

        var size = checked(Math.Max(_buffer.Length * 2, pending + needed));
        var next = ArrayPool<byte>.Shared.Rent(size);
        _buffer.AsSpan(_start, pending).CopyTo(next);
        if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
        }

        _buffer = next;
        _start = 0;
        _written = pending;
    }
}
