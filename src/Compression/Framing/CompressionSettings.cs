using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Framing;

/// <summary>
/// What one encoder does, resolved from <see cref="CompressionOptions"/> and the binding: the size floor, the
/// decompressed-size limit, and the policy that chooses each message's codec and level (<see cref="Choose"/>) and
/// learns from what every message sent and received cost (<see cref="ReportSent"/>, <see cref="ReportReceived"/>).
/// </summary>
internal sealed class CompressionSettings(CompressionCodec codec, int level, int minMessageSize, int maxDecompressedSize, MessagePolicy? policy = null)
{
    /// <summary>The fixed policy's codec (the 2011 rules' too).</summary>
    public CompressionCodec Codec => codec;

    /// <summary>The fixed policy's level.</summary>
    public int Level => level;

    public int MinMessageSize => minMessageSize;

    /// <summary>The most bytes a received message may have once decompressed.</summary>
    public int MaxDecompressedSize => maxDecompressedSize;

    public MessagePolicy Policy { get; } = policy ?? new FixedPolicy(codec, level, log: null);

    /// <summary>Receives the outcome of every message this encoder writes or reads; null for none.</summary>
    public Action<CompressionOutcome>? Observer { get; init; }

    /// <summary>Settings from validated <paramref name="options"/>; <paramref name="transportLimit"/> is the binding's MaxReceivedMessageSize.</summary>
    public static CompressionSettings From(CompressionOptions options, long transportLimit)
    {
        options.Validate();
        long limit = options.MaxDecompressedSize ?? Math.Min(transportLimit, int.MaxValue);
        MessagePolicy policy = options.Policy switch
        {
            CompressionPolicy.Adaptive => new AdaptivePolicy(AdaptiveSettings.From(options), SystemEnvironment.Instance),
            CompressionPolicy.Rules2011 => new Rules2011Policy(options, SystemEnvironment.Instance),
            _ => new FixedPolicy(options.Codec, options.EffectiveLevel, options.DecisionLog),
        };
        return new CompressionSettings(options.Codec, options.EffectiveLevel, options.MinMessageSize, (int)Math.Max(1, limit), policy);
    }

    /// <summary>
    /// The codec (null: raw) and level for a message of <paramref name="length"/> encoded bytes whose first bytes are
    /// <paramref name="sample"/> (<see cref="long.MaxValue"/>: a streamed message longer than one block). Below the
    /// size floor the policy is not asked, nor is one that sends raw to a peer on this machine (<paramref name="localPeer"/>).
    /// </summary>
    public CompressionChoice Choose(string? action, ReadOnlySpan<byte> sample, long length, bool localPeer = false) =>
        length < minMessageSize ? CompressionChoice.BelowFloor
        : localPeer && Policy.RawToLocalPeers ? CompressionChoice.LocalPeer(action)
        : Policy.Choose(action ?? string.Empty, sample, length);

    /// <summary>Whether the sending of a message with <paramref name="choice"/> is timed: the policy asked, and a codec runs.</summary>
    public static bool Timed(in CompressionChoice choice) => choice.Timed && choice.Codec is not null;

    /// <summary>Whether the decoding of a received frame of <paramref name="codec"/> is timed: a codec runs, and the policy asks.</summary>
    public bool TimesDecode(CompressionCodec? codec) => codec is not null && Policy.TimeDecode();

    /// <summary>A reading of <see cref="CodecClock"/> where <paramref name="timed"/>; 0 otherwise (an untimed message costs no system call).</summary>
    public static long CodecTime(bool timed) => timed ? CodecClock.Now() : 0;

    /// <summary>Whether the encoder should tell <see cref="Choose"/> if a message's peer is on this machine (a lookup per message).</summary>
    public bool WantsPeer => Policy.RawToLocalPeers;

    public void ReportSent(in CompressionChoice choice, in CompressionOutcome outcome)
    {
        Policy.Sent(choice, outcome);
        Observer?.Invoke(outcome);
    }

    public void ReportReceived(in CompressionOutcome outcome)
    {
        Policy.Received(outcome);
        Observer?.Invoke(outcome);
    }
}

/// <summary>One message through an encoder: its codec (null: raw), encoded and wire sizes, and the codec's time.</summary>
/// <param name="Sent">True for a message written, false for one read.</param>
/// <param name="Codec">The frame's codec; null when the message travelled raw.</param>
/// <param name="Level">The level it was compressed at (0 when raw or read).</param>
/// <param name="Length">The inner encoder's bytes.</param>
/// <param name="WireLength">The frame's bytes.</param>
/// <param name="ElapsedTicks">Ticks of <see cref="CodecClock"/> spent compressing (or trying to) or decompressing; 0 when not timed (<see cref="CompressionSettings.CodecTime"/>).</param>
internal readonly record struct CompressionOutcome(bool Sent, CompressionCodec? Codec, int Level, long Length, long WireLength, long ElapsedTicks);

/// <summary>Where frames take their buffers: the WCF BufferManager of each side, behind one shape.</summary>
internal interface IBufferPool
{
    byte[] Take(int size);

    void Return(byte[] buffer);
}
