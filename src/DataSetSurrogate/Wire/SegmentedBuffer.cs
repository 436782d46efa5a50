using System.Buffers;

namespace Surrogate.Wire;

/// <summary>
/// The codec's one pooled buffer: bytes in segments rented from <see cref="ArrayPool{T}.Shared"/>. It grows by adding a
/// segment (each as large as everything before it, up to <see cref="MaxSegment"/>), so what it holds is never copied
/// to grow it and a large payload is never asked of the pool as one array; a span request larger than that gets a
/// segment of its own. Dispose (or <see cref="Reset"/>) gives the segments back.
/// </summary>
internal sealed class SegmentedBuffer : IBufferWriter<byte>, IDisposable
{
    public const int MinSegment = 4096;
    public const int MaxSegment = 1 << 20;

    private readonly List<byte[]> _segments = [];
    private readonly List<int> _counts = [];
    private byte[] _current = [];
    private int _written;

    /// <summary>Bytes held.</summary>
    public long Length { get; private set; }

    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        var needed = Math.Max(sizeHint, 1);
        if (_current.Length - _written < needed)
        {
            AddSegment(needed);
        }

        return _current.AsMemory(_written);
    }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, _current.Length - _written);
        _written += count;
        Length += count;
    }

    /// <summary>The bytes held, as one sequence over the segments (valid until the next write, reset or dispose).</summary>
    public ReadOnlySequence<byte> AsSequence()
    {
        Seal();
        if (_segments.Count == 1)
        {
            return new ReadOnlySequence<byte>(_segments[0], 0, _counts[0]);
        }

        if (_segments.Count == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new Segment(_segments[0].AsMemory(0, _counts[0]), 0);
        var last = first;
        for (var i = 1; i < _segments.Count; i++)
        {
            last = last.Append(_segments[i].AsMemory(0, _counts[i]));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    public byte[] ToArray()
    {
        Seal();
        var result = GC.AllocateUninitializedArray<byte>(checked((int)Length));
        var at = 0;
        for (var i = 0; i < _segments.Count; i++)
        {
            _segments[i].AsSpan(0, _counts[i]).CopyTo(result.AsSpan(at));
            at += _counts[i];
        }

        return result;
    }

    public void WriteTo(Stream stream)
    {
        Seal();
        for (var i = 0; i < _segments.Count; i++)
        {
            stream.Write(_segments[i], 0, _counts[i]);
        }
    }

    public async ValueTask WriteToAsync(Stream stream, CancellationToken cancellationToken)
    {
        Seal();
        for (var i = 0; i < _segments.Count; i++)
        {
            await stream.WriteAsync(_segments[i].AsMemory(0, _counts[i]), cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Empties the buffer, keeping its first segment for what comes next.</summary>
    public void Reset()
    {
        Seal();
        if (_segments.Count == 0)
        {
            return;
        }

        var keep = _segments[0];
        for (var i = 1; i < _segments.Count; i++)
        {
            ArrayPool<byte>.Shared.Return(_segments[i]);
        }

        _segments.Clear();
        _counts.Clear();
        _current = keep;
        _written = 0;
        Length = 0;
    }

    public void Dispose()
    {
        Reset();
        if (_current.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_current);
        }

        _current = [];
    }

    // The current segment joins the list of full ones (with what was written to it), if it holds anything.
    private void Seal()
    {
        if (_written > 0)
        {
            _segments.Add(_current);
            _counts.Add(_written);
            _current = [];
            _written = 0;
        }
    }

    private void AddSegment(int needed)
    {
        var size = Math.Max(needed, (int)Math.Clamp(Length, MinSegment, MaxSegment));
        var next = ArrayPool<byte>.Shared.Rent(size);
        if (_written > 0)
        {
            Seal();
        }
        else if (_current.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_current);
        }

        _current = next;
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
