using System.Buffers;

namespace Surrogate.Tests.Fixtures;

/// <summary>Inputs that arrive in inconvenient pieces.</summary>
public static class AwkwardInput
{
    /// <summary>Splits a payload into a sequence of segments of the given size.</summary>
    public static ReadOnlySequence<byte> Segmented(byte[] payload, int segmentSize)
    {
        if (payload.Length == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        Segment? first = null, last = null;
        for (var offset = 0; offset < payload.Length; offset += segmentSize)
        {
            var chunk = payload.AsMemory(offset, Math.Min(segmentSize, payload.Length - offset)).ToArray();
            var segment = new Segment(chunk, last?.RunningIndex + last?.Memory.Length ?? 0);
            if (last is null)
            {
                first = segment;
            }
            else
            {
                last.SetNext(segment);
            }

            last = segment;
        }

        return new ReadOnlySequence<byte>(first!, 0, last!, last!.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public void SetNext(Segment next) => Next = next;
    }
}

/// <summary>A stream that hands out at most one byte per read, like a slow socket.</summary>
public sealed class OneByteAtATimeStream(byte[] data) : Stream
{
    private int position;

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => position; set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        if (position >= data.Length || buffer.Length == 0)
        {
            return 0;
        }

        buffer[0] = data[position++];
        return 1;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        ValueTask.FromResult(Read(buffer.Span));

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        Task.FromResult(Read(buffer.AsSpan(offset, count)));

    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
