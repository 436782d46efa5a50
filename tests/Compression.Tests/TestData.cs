using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Tests;

/// <summary>Inputs and a buffer pool that records what it handed out.</summary>
internal static class TestData
{
    /// <summary>Every codec with every level it offers.</summary>
    public static TheoryData<CompressionCodec, int> AllLevels()
    {
        var data = new TheoryData<CompressionCodec, int>();
        foreach (CompressionCodec codec in Enum.GetValues<CompressionCodec>())
        {
            foreach (int level in CompressionOptions.Levels(codec))
            {
                data.Add(codec, level);
            }
        }

        return data;
    }

    public static TheoryData<CompressionCodec> AllCodecs() => new(Enum.GetValues<CompressionCodec>());

    /// <summary>Repetitive text, as SOAP bodies are: compresses well with every codec.</summary>
    public static byte[] Text(int length, int seed = 1)
    {
        string[] words = ["Order", "ShippingAddress", "Seattle", "Visa", "Quantity", "ItemID", "<b:Order>", "</b:Order>", "2026-05-01"];
        var random = new Random(seed);
        var bytes = new byte[length];
        int at = 0;
        while (at < length)
        {
            string word = words[random.Next(words.Length)] + random.Next(100);
            at += System.Text.Encoding.ASCII.GetBytes(word.AsSpan(0, Math.Min(word.Length, length - at)), bytes.AsSpan(at));
        }

        return bytes;
    }

    /// <summary>Random bytes: no codec makes them smaller.</summary>
    public static byte[] Random(int length, int seed = 2)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    public static CompressionSettings Settings(CompressionCodec codec, int? level = null, int min = 0, int limit = 64 << 20, Action<CompressionOutcome>? observer = null) =>
        new(codec, level ?? CompressionOptions.DefaultLevel(codec), min, limit) { Observer = observer };

    /// <summary>
    /// Frames <paramref name="message"/> as an encoder does: the inner bytes placed after <paramref name="offset"/> +
    /// the reserve, in a pool buffer.
    /// </summary>
    public static ArraySegment<byte> Encode(RecordingPool pool, byte[] message, CompressionSettings settings, int offset = 0)
    {
        byte[] buffer = pool.Take(offset + BufferedFrames.Reserve + message.Length);
        message.CopyTo(buffer, offset + BufferedFrames.Reserve);
        return BufferedFrames.Encode(pool, new ArraySegment<byte>(buffer, offset + BufferedFrames.Reserve, message.Length), offset, settings);
    }
}

/// <summary>Hands out exact-size arrays and records what it handed out, took back, and the largest request.</summary>
internal sealed class RecordingPool : IBufferPool
{
    public int LargestTake { get; private set; }

    public List<byte[]> Taken { get; } = [];

    public List<byte[]> Returned { get; } = [];

    public byte[] Take(int size)
    {
        LargestTake = Math.Max(LargestTake, size);
        byte[] buffer = new byte[size];
        Taken.Add(buffer);
        return buffer;
    }

    public void Return(byte[] buffer) => Returned.Add(buffer);
}
