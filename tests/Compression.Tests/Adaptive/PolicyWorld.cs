using System.Diagnostics;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>A process whose clock, CPU time (its own and other processes' on its cores) and thread-pool queue the test sets.</summary>
internal sealed class FakeEnvironment : IPolicyEnvironment
{
    private TimeSpan _machineBusy;

    public long Timestamp { get; private set; } = Stopwatch.Frequency * 1000;

    public TimeSpan ProcessCpuTime { get; private set; }

    public (TimeSpan Busy, int Cores)? MachineCpuTime => (_machineBusy, Cores);

    public int ProcessorCount { get; set; } = 2;

    /// <summary>The machine's cores, when the process may use fewer of them (pinned); else <see cref="ProcessorCount"/>.</summary>
    public int? MachineCores { get; set; }

    public long PendingWorkItems { get; set; }

    /// <summary>The share of its cores the process uses while time passes.</summary>
    public double Utilization { get; set; }

    /// <summary>The share of the machine's cores other processes use while time passes.</summary>
    public double OthersUtilization { get; set; }

    public void Advance(double seconds)
    {
        Timestamp += (long)(seconds * Stopwatch.Frequency);
        TimeSpan own = TimeSpan.FromSeconds(seconds * Utilization * ProcessorCount);
        ProcessCpuTime += own;
        _machineBusy += own + TimeSpan.FromSeconds(seconds * OthersUtilization * Cores);
    }

    private int Cores => MachineCores ?? ProcessorCount;
}

/// <summary>How one codec and level behaves on the world's messages: ratio and compression time per byte.</summary>
internal readonly record struct CodecBehaviour(double Ratio, double SecondsPerByte);

/// <summary>
/// A deterministic world for the policies: messages of one action, codecs that compress them as
/// <see cref="Behaviour"/> says and take that long (the clock advances by it), a link of <see cref="LinkBytesPerSecond"/>,
/// and a peer that answers after reading (<see cref="PeerSecondsPerByte"/> per byte before compression, plus
/// <see cref="PeerFixedSeconds"/>), with a little seeded noise on each round trip. Each message goes through the policy's
/// Choose and Sent, and (when the policy measures the link) a session clock's Sent and Received.
/// </summary>
internal sealed class PolicyWorld
{
    private readonly Random _noise = new(11);
    private readonly RoundTripClock? _clock;

    public PolicyWorld(MessagePolicy policy, FakeEnvironment env, Func<CompressionCodec, int, CodecBehaviour>? behaviour = null)
    {
        Policy = policy;
        Env = env;
        Behaviour = behaviour ?? SoapLike;
        _clock = policy.CreateClock();
    }

    public MessagePolicy Policy { get; }

    public FakeEnvironment Env { get; }

    public Func<CompressionCodec, int, CodecBehaviour> Behaviour { get; set; }

    public double LinkBytesPerSecond { get; set; } = 125e6;

    public double PeerSecondsPerByte { get; set; } = 10e-9;

    public double PeerFixedSeconds { get; set; } = 0.0002;

    /// <summary>Relative noise on each round trip (uniform ±).</summary>
    public double Noise { get; set; } = 0.03;

    public string Action { get; set; } = "urn:test/GetOrdersResponse";

    /// <summary>The bytes the policy samples for its entropy check.</summary>
    public byte[] Sample { get; set; } = TestData.Text(4096);

    /// <summary>Sends one message of <paramref name="length"/> bytes; returns the policy's choice and the outcome.</summary>
    public (CompressionChoice Choice, CompressionOutcome Outcome) Send(long length)
    {
        CompressionChoice choice = Policy.Choose(Action, Sample, length);
        CompressionOutcome outcome = Outcome(choice, length);
        Env.Advance(outcome.ElapsedTicks / (double)Stopwatch.Frequency);
        Policy.Sent(choice, outcome);
        if (_clock is not null)
        {
            _clock.Sent(outcome.WireLength, length, AsSent(choice, outcome));
            double gap = (outcome.WireLength / LinkBytesPerSecond) + (length * PeerSecondsPerByte) + PeerFixedSeconds + (200 / LinkBytesPerSecond);
            Env.Advance(gap * (1 + (Noise * ((2 * _noise.NextDouble()) - 1))));
            _clock.Received(200, 189);
        }
        else
        {
            Env.Advance((outcome.WireLength / LinkBytesPerSecond) + PeerFixedSeconds);
        }

        return (choice, outcome);
    }

    /// <summary>Sends <paramref name="count"/> messages; returns their choices.</summary>
    public List<CompressionChoice> Send(long length, int count)
    {
        var choices = new List<CompressionChoice>(count);
        for (int i = 0; i < count; i++)
        {
            choices.Add(Send(length).Choice);
        }

        return choices;
    }

    /// <summary>What the world's codecs make of <paramref name="length"/> bytes sent as <paramref name="choice"/> says (raw when it does not save enough).</summary>
    public CompressionOutcome Outcome(in CompressionChoice choice, long length)
    {
        if (choice.Codec is not { } codec)
        {
            return new CompressionOutcome(true, null, 0, length, length + 11, 0);
        }

        CodecBehaviour b = Behaviour(codec, choice.Level);
        long ticks = (long)(b.SecondsPerByte * length * Stopwatch.Frequency);
        long payload = (long)(length * b.Ratio);
        return payload <= Math.Min(length - 1, (long)(length * choice.MaxRatio)) - 4
            ? new CompressionOutcome(true, codec, choice.Level, length, payload + 15, ticks)
            : new CompressionOutcome(true, null, 0, length, length + 11, ticks);
    }

    /// <summary>
    /// SOAP-like messages: LZ4 0.40 at 500 MB/s, zstd 1/3/6/9/15 0.28/0.25/0.23/0.21/0.20 at 300/150/60/35/8 MB/s,
    /// DEFLATE 2/6/9 0.30/0.24/0.235 at 140/55/15 MB/s (where the codec sweep puts them against zstd), Brotli rougher.
    /// </summary>
    public static CodecBehaviour SoapLike(CompressionCodec codec, int level) => (codec, level) switch
    {
        (CompressionCodec.Lz4, _) => new(0.40, 1 / 500e6),
        (CompressionCodec.Zstd, 1) => new(0.28, 1 / 300e6),
        (CompressionCodec.Zstd, 3) => new(0.25, 1 / 150e6),
        (CompressionCodec.Zstd, 6) => new(0.23, 1 / 60e6),
        (CompressionCodec.Zstd, 9) => new(0.21, 1 / 35e6),
        (CompressionCodec.Zstd, _) => new(0.20, 1 / 8e6),
        (CompressionCodec.Brotli, <= 1) => new(0.30, 1 / 120e6),
        (CompressionCodec.Brotli, <= 4) => new(0.24, 1 / 50e6),
        (CompressionCodec.Brotli, _) => new(0.20, 1 / 6e6),
        (_, <= 2) => new(0.30, 1 / 140e6),
        (_, <= 6) => new(0.24, 1 / 55e6),
        _ => new(0.235, 1 / 15e6),
    };

    /// <summary>Random bytes: nothing saves anything.</summary>
    public static CodecBehaviour Incompressible(CompressionCodec codec, int level) => new(1.001, codec == CompressionCodec.Lz4 || codec == CompressionCodec.Zstd ? 1 / 3000e6 : 1 / 40e6);

    /// <summary>The adaptive policy with the default ladder (<see cref="CompressionOptions.AdaptiveCodecs"/>) and the given overrides.</summary>
    public static AdaptivePolicy Adaptive(
        FakeEnvironment env,
        double linkBitsPerSecond,
        bool measureLink = false,
        CompressionGoal goal = CompressionGoal.Latency,
        double exploration = 0.03,
        double cpuHigh = 0.85,
        IReadOnlyList<CompressionCodec>? codecs = null,
        CompressionDecisionLog? log = null) =>
        new(new AdaptiveSettings(
            ArmLadder.Build(codecs ?? CompressionOptions.Adaptive.AdaptiveCodecs), goal, exploration, linkBitsPerSecond / 8,
            measureLink, 0.03, cpuHigh, 0.60, log), env);

    /// <summary>The choice a message went out as, as the encoders tell their clock: default where a codec's result went raw.</summary>
    public static CompressionChoice AsSent(in CompressionChoice choice, in CompressionOutcome outcome) =>
        outcome.Codec == choice.Codec ? choice : default;

    /// <summary>The name of a choice, e.g. "raw", "lz4-0", "zstd-3".</summary>
    public static string Name(CompressionCodec? codec, int level) => codec is null ? "raw" : $"{codec.Value.ToString().ToLowerInvariant()}-{level}";

    public static string Name(in CompressionChoice choice) => Name(choice.Codec, choice.Level);
}
