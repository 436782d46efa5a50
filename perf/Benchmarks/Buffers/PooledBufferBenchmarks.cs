using System.Buffers;
using BenchmarkDotNet.Attributes;
using CommunityToolkit.HighPerformance.Buffers;
using Nerdbank.Streams;
using Surrogate.Wire;

namespace Surrogate.Perf.Benchmarks.Buffers;

/// <summary>
/// The codec's pooled buffer against the maintained ones that restore here, used as the codec uses it: a payload of
/// <see cref="Size"/> bytes written in row-block-sized pieces (GetSpan of the piece, Advance), then handed on as a
/// sequence (copied to a stream), then disposed. One buffer per call, as in the codec.
/// </summary>
[Config(typeof(BenchConfig))]
public class PooledBufferBenchmarks
{
    private const int Piece = 64 * 1024;

    /// <summary>Payload bytes: 1 KB, 1 MB, 50 MB.</summary>
    [Params(1024, 1 << 20, 50 << 20)]
    public int Size { get; set; }

    /// <summary>Ours: pooled segments, each as large as everything before it up to 1 MiB.</summary>
    [Benchmark(Baseline = true)]
    public long SegmentedBuffer()
    {
        using var buffer = new SegmentedBuffer();
        Write(buffer);
        return HandOn(buffer.AsSequence());
    }

    /// <summary>Nerdbank.Streams: pooled segments (ArrayPool), the segment objects recycled by the sequence.</summary>
    [Benchmark]
    public long NerdbankSequence()
    {
        using var buffer = new Sequence<byte>(ArrayPool<byte>.Shared);
        Write(buffer);
        return HandOn(buffer.AsReadOnlySequence);
    }

    /// <summary>CommunityToolkit.HighPerformance: one pooled array, doubled (copied) as it grows.</summary>
    [Benchmark]
    public long ArrayPoolBufferWriter()
    {
        using var buffer = new ArrayPoolBufferWriter<byte>();
        Write(buffer);
        return HandOn(new ReadOnlySequence<byte>(buffer.WrittenMemory));
    }

    /// <summary>The BCL's ArrayBufferWriter: one array, newly allocated as it grows.</summary>
    [Benchmark]
    public long ArrayBufferWriter()
    {
        var buffer = new ArrayBufferWriter<byte>();
        Write(buffer);
        return HandOn(new ReadOnlySequence<byte>(buffer.WrittenMemory));
    }

    private void Write(IBufferWriter<byte> buffer)
    {
        for (var remaining = Size; remaining > 0; remaining -= Piece)
        {
            var count = Math.Min(remaining, Piece);
            buffer.GetSpan(count)[..count].Fill(0x5A);
            buffer.Advance(count);
        }
    }

    private static long HandOn(ReadOnlySequence<byte> payload)
    {
        foreach (var segment in payload)
        {
            Stream.Null.Write(segment.Span);
        }

        return payload.Length;
    }
}
