using System.Buffers;
using System.Diagnostics;
using Surrogate.Compression;
using Surrogate.Compression.Framing;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>One codec and level on one captured reply: frame size, ratio, and the encoder's time per message each way.</summary>
/// <param name="Ratio">Frame bytes / message bytes (1 and a raw frame when compressing did not make it smaller).</param>
/// <param name="CompressMs">Median time of the encoder's write path (codec, checksum, frame) for this message.</param>
/// <param name="DecompressMs">Median time of the encoder's read path (header checks, codec, checksum).</param>
public sealed record SweepPoint(
    string Class,
    int Size,
    string Codec,
    int Level,
    int MessageBytes,
    int FrameBytes,
    double Ratio,
    double CompressMs,
    double DecompressMs,
    int Repetitions)
{
    public double CompressMBps => MessageBytes / 1e6 / (CompressMs / 1000);

    public double DecompressMBps => MessageBytes / 1e6 / (DecompressMs / 1000);
}

/// <summary>
/// Times every requested codec and level on one reply's bytes through the compressing encoder's own buffered path
/// (<c>BufferedFrames.Encode</c> and <c>Decode</c>: codec, XXH3 checksum, frame, pooled buffers), so the model's
/// codec speed is what the encoder spends per message. Each is repeated until <c>budget</c> seconds (at least three
/// times) and the median taken; every decode is checked against the original once.
/// </summary>
public static class CodecSweep
{
    public static IEnumerable<SweepPoint> Run(string messageClass, int size, byte[] message, IEnumerable<(CompressionCodec Codec, int Level)> levels, double budget)
    {
        foreach (var (codec, level) in levels)
        {
            var settings = new CompressionSettings(codec, level, minMessageSize: 0, maxDecompressedSize: int.MaxValue);
            var pool = new TrackingPool();
            byte[] source = new byte[BufferedFrames.Reserve + message.Length];
            message.CopyTo(source, BufferedFrames.Reserve);
            pool.Keep(source);

            ArraySegment<byte> frame = BufferedFrames.Encode(pool, new ArraySegment<byte>(source, BufferedFrames.Reserve, message.Length), 0, settings);
            byte[] stored = frame.ToArray();
            pool.Return(frame.Array!);
            pool.Keep(stored);
            ArraySegment<byte> decoded = BufferedFrames.Decode(pool, new ArraySegment<byte>(stored), settings);
            if (!decoded.AsSpan().SequenceEqual(message))
            {
                throw new InvalidOperationException($"{codec} {level}: the frame did not decode to the message.");
            }

            pool.Return(decoded.Array!);
            double compress = Median(budget, () =>
            {
                ArraySegment<byte> f = BufferedFrames.Encode(pool, new ArraySegment<byte>(source, BufferedFrames.Reserve, message.Length), 0, settings);
                pool.Return(f.Array!);
            }, out int repetitions);
            double decompress = Median(budget, () => pool.Return(BufferedFrames.Decode(pool, new ArraySegment<byte>(stored), settings).Array!), out _);
            yield return new SweepPoint(messageClass, size, codec.ToString(), level, message.Length, stored.Length,
                (double)stored.Length / message.Length, compress, decompress, repetitions);
        }
    }

    /// <summary>Median milliseconds of <paramref name="action"/>, run until <paramref name="budget"/> seconds have passed and at least three times.</summary>
    private static double Median(double budget, Action action, out int repetitions)
    {
        var times = new List<double>();
        var clock = Stopwatch.StartNew();
        while (times.Count < 3 || (clock.Elapsed.TotalSeconds < budget && times.Count < 10_000))
        {
            long start = Stopwatch.GetTimestamp();
            action();
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }

        repetitions = times.Count;
        times.Sort();
        return times[times.Count / 2];
    }

    /// <summary>
    /// Pool buffers from <see cref="ArrayPool{T}.Shared"/>; the framing returns the buffers it consumed, and the arrays
    /// this sweep keeps (the message, the stored frame) are never handed to the shared pool.
    /// </summary>
    private sealed class TrackingPool : IBufferPool
    {
        private readonly HashSet<byte[]> kept = new(ReferenceEqualityComparer.Instance);

        public void Keep(byte[] buffer) => kept.Add(buffer);

        public byte[] Take(int size) => ArrayPool<byte>.Shared.Rent(size);

        public void Return(byte[] buffer)
        {
            if (!kept.Contains(buffer))
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }
}
