namespace Surrogate.Compression.Framing;

/// <summary>
/// What one encoder does, resolved from <see cref="CompressionOptions"/> and the binding: the codec and level per
/// message, the size floor, and the decompressed-size limit. The codec is chosen per message (<see cref="Choose"/>),
/// and every message's sizes and time are reported to <see cref="Observer"/>, so a policy that adapts can replace the
/// static choice without touching the framing.
/// </summary>
internal sealed class CompressionSettings(CompressionCodec codec, int level, int minMessageSize, int maxDecompressedSize)
{
    public CompressionCodec Codec => codec;

    public int Level => level;

    public int MinMessageSize => minMessageSize;

    /// <summary>The most bytes a received message may have once decompressed.</summary>
    public int MaxDecompressedSize => maxDecompressedSize;

    /// <summary>Receives the outcome of every message this encoder writes or reads; null for none.</summary>
    public Action<CompressionOutcome>? Observer { get; init; }

    /// <summary>Settings from validated <paramref name="options"/>; <paramref name="transportLimit"/> is the binding's MaxReceivedMessageSize.</summary>
    public static CompressionSettings From(CompressionOptions options, long transportLimit)
    {
        options.Validate();
        long limit = options.MaxDecompressedSize ?? Math.Min(transportLimit, int.MaxValue);
        return new CompressionSettings(options.Codec, options.EffectiveLevel, options.MinMessageSize, (int)Math.Max(1, limit));
    }

    /// <summary>The codec (null: raw) and level for a message of <paramref name="length"/> encoded bytes.</summary>
    public (CompressionCodec? Codec, int Level) Choose(long length) => length < minMessageSize ? (null, 0) : (codec, level);

    public void Report(in CompressionOutcome outcome) => Observer?.Invoke(outcome);
}

/// <summary>One message through an encoder: its codec (null: raw), encoded and wire sizes, and the codec's time.</summary>
/// <param name="Sent">True for a message written, false for one read.</param>
/// <param name="Codec">The frame's codec; null when the message travelled raw.</param>
/// <param name="Level">The level it was compressed at (0 when raw or read).</param>
/// <param name="Length">The inner encoder's bytes.</param>
/// <param name="WireLength">The frame's bytes.</param>
/// <param name="ElapsedTicks">Stopwatch ticks spent compressing or decompressing.</param>
internal readonly record struct CompressionOutcome(bool Sent, CompressionCodec? Codec, int Level, long Length, long WireLength, long ElapsedTicks);

/// <summary>Where frames take their buffers: the WCF BufferManager of each side, behind one shape.</summary>
internal interface IBufferPool
{
    byte[] Take(int size);

    void Return(byte[] buffer);
}
