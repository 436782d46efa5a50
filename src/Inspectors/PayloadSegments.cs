using System.Buffers;
using System.Xml;

namespace Surrogate.ServiceModel;

/// <summary>
/// Payload bytes in 64 KiB segments rented from <see cref="ArrayPool{T}.Shared"/>: what the XML reader hands over
/// chunk by chunk, or what the writer stages before it writes through. It never asks for one large array, so a large
/// payload neither lands on the large-object heap nor is copied each time the buffer would have doubled.
/// </summary>
internal sealed class PayloadSegments : IDisposable
{
    /// <summary>The size of each segment, and of each read from the XML reader.</summary>
    public const int SegmentSize = 64 * 1024;

    private readonly List<byte[]> _segments = [];
    private int _lastCount;
    private bool _disposed;

    /// <summary>Bytes held.</summary>
    public long Count { get; private set; }

    /// <summary>The segments in order, each trimmed to the bytes it holds.</summary>
    public IEnumerable<ArraySegment<byte>> Segments
    {
        get
        {
            for (int i = 0; i < _segments.Count; i++)
            {
                yield return new ArraySegment<byte>(_segments[i], 0, i == _segments.Count - 1 ? _lastCount : SegmentSize);
            }
        }
    }

    /// <summary>The free tail of the last segment (a new segment when it is full), for an array-based reader.</summary>
    public ArraySegment<byte> GetFree()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_segments.Count == 0 || _lastCount == SegmentSize)
        {
            _segments.Add(ArrayPool<byte>.Shared.Rent(SegmentSize));
            _lastCount = 0;
        }

        return new ArraySegment<byte>(_segments[^1], _lastCount, SegmentSize - _lastCount);
    }

    /// <summary>Records that <paramref name="count"/> bytes were written into the segment <see cref="GetFree"/> returned.</summary>
    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, SegmentSize - _lastCount);
        _lastCount += count;
        Count += count;
    }

    /// <summary>
    /// Reads the base64 (or, on the binary encoder, raw bytes) content of the reader's current element, up to its end.
    /// Chunked reads keep ReaderQuotas.MaxArrayLength out of play (no single array is requested), and each asks for no
    /// more than one byte past <paramref name="limit"/>, so an oversized value is refused as soon as it passes the
    /// limit, without reading or holding the rest. False when the content is longer than <paramref name="limit"/>.
    /// </summary>
    public bool ReadContent(XmlReader reader, long limit)
    {
        int read;
        do
        {
            ArraySegment<byte> free = GetFree();
            read = reader.ReadContentAsBase64(free.Array!, free.Offset, (int)Math.Min(free.Count, limit - Count + 1));
            Advance(read);
            if (Count > limit)
            {
                return false;
            }
        }
        while (read > 0);
        return true;
    }

    /// <summary>Appends <paramref name="data"/>.</summary>
    public void Write(ReadOnlySpan<byte> data)
    {
        while (!data.IsEmpty)
        {
            ArraySegment<byte> free = GetFree();
            int count = Math.Min(free.Count, data.Length);
            data[..count].CopyTo(free.AsSpan());
            Advance(count);
            data = data[count..];
        }
    }

    /// <summary>The bytes held, as one sequence over the segments (valid until disposed).</summary>
    public ReadOnlySequence<byte> ToSequence()
    {
        if (_segments.Count <= 1)
        {
            return _segments.Count == 0 ? ReadOnlySequence<byte>.Empty : new ReadOnlySequence<byte>(_segments[0], 0, _lastCount);
        }

        var first = new Segment(_segments[0].AsMemory(0, SegmentSize), 0);
        Segment last = first;
        for (int i = 1; i < _segments.Count; i++)
        {
            last = last.Append(_segments[i].AsMemory(0, i == _segments.Count - 1 ? _lastCount : SegmentSize));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        foreach (byte[] segment in _segments)
        {
            ArrayPool<byte>.Shared.Return(segment);
        }

        _segments.Clear();
        Count = 0;
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Segment Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Segment(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
