using System.Buffers;

namespace Surrogate.ServiceModel;

/// <summary>
/// A growable byte buffer rented from <see cref="ArrayPool{T}.Shared"/>: the codec writes into it, the XML reader
/// fills it chunk by chunk. Large payloads never land in one exactly-sized array on the large-object heap.
/// </summary>
internal sealed class PooledBuffer : IBufferWriter<byte>, IDisposable
{
    private const int InitialSize = 16 * 1024;
    private byte[] _buffer;
    private int _count;

    public PooledBuffer(int initialSize = InitialSize) => _buffer = ArrayPool<byte>.Shared.Rent(initialSize);

    public int Count => _count;

    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _count);

    public ArraySegment<byte> WrittenSegment => new(_buffer, 0, _count);

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, _buffer.Length - _count);
        _count += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_count);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_count);
    }

    /// <summary>The free tail of the buffer, at least <paramref name="sizeHint"/> bytes, for an array-based reader.</summary>
    public ArraySegment<byte> GetSegment(int sizeHint)
    {
        Ensure(sizeHint);
        return new ArraySegment<byte>(_buffer, _count, _buffer.Length - _count);
    }

    public void Dispose()
    {
        byte[] buffer = _buffer;
        _buffer = [];
        _count = 0;
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Ensure(int sizeHint)
    {
        ObjectDisposedException.ThrowIf(_buffer.Length == 0, this);
        int needed = Math.Max(sizeHint, 1);
        if (_buffer.Length - _count >= needed)
        {
            return;
        }

        long wanted = Math.Max((long)_buffer.Length * 2, (long)_count + needed);
        if (wanted > Array.MaxLength)
        {
            wanted = (long)_count + needed <= Array.MaxLength
                ? Array.MaxLength
                : throw new DataSetSurrogateException($"A DataSet payload larger than {Array.MaxLength} bytes cannot be buffered.");
        }

        byte[] larger = ArrayPool<byte>.Shared.Rent((int)wanted);
        _buffer.AsSpan(0, _count).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = larger;
    }
}
