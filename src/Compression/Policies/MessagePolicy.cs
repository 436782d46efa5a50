using System.Diagnostics;
using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Policies;

/// <summary>
/// Chooses each sent message's codec and level, and hears what every message sent and received cost. One instance
/// per binding element, shared by all its encoders and connections, so implementations are thread-safe.
/// </summary>
internal abstract class MessagePolicy(CompressionDecisionLog? log)
{
    /// <summary>The choice for a message at or above the size floor.</summary>
    /// <param name="action">Its SOAP action (empty when none).</param>
    /// <param name="sample">Its first bytes (all of a buffered message, the first block of a streamed one).</param>
    /// <param name="length">Its length; <see cref="long.MaxValue"/> for a streamed message longer than one block.</param>
    public abstract CompressionChoice Choose(string action, ReadOnlySpan<byte> sample, long length);

    /// <summary>A message was sent as <paramref name="outcome"/> says, after <paramref name="choice"/>.</summary>
    public virtual void Sent(in CompressionChoice choice, in CompressionOutcome outcome)
    {
        CompressionMetrics.Sent(choice, outcome);
        if (log is not null && choice.Reason != CompressionDecisionReason.BelowFloor)
        {
            log.Add(new CompressionDecision(
                log.TimeOf(Stopwatch.GetTimestamp()), choice.Action ?? string.Empty, outcome.Length, outcome.WireLength,
                choice.Codec, choice.Codec is null ? 0 : choice.Level, CompressionMetrics.ReasonOf(choice, outcome),
                choice.PredictedRatio, choice.LinkBytesPerSecond, choice.CpuUtilization, choice.Goal)
            {
                LinkSource = choice.LinkSource,
                PredictedRate = choice.PredictedRate,
                RawPredictedRate = choice.RawPredictedRate,
            });
        }
    }

    /// <summary>A message was received as <paramref name="outcome"/> says.</summary>
    public virtual void Received(in CompressionOutcome outcome) => CompressionMetrics.Received(outcome);

    /// <summary>
    /// Whether the encoder times the decoding of the frame it is about to decode (reading <see cref="Framing.CodecClock"/>
    /// around it); asked once a compressed frame.
    /// </summary>
    public virtual bool TimeDecode() => false;

    /// <summary>Whether a message to a peer on this machine goes raw without asking <see cref="Choose"/>.</summary>
    public virtual bool RawToLocalPeers => false;

    /// <summary>A clock for one session encoder's sends and receives, or null when the policy does not time round trips.</summary>
    public virtual RoundTripClock? CreateClock() => null;

    /// <summary>A streamed frame's write of <paramref name="bytes"/> to the transport took <paramref name="ticks"/>.</summary>
    public virtual void TransportWrite(int bytes, long ticks)
    {
    }
}

/// <summary>One codec and level for every message at or above the floor.</summary>
internal sealed class FixedPolicy(CompressionCodec codec, int level, CompressionDecisionLog? log) : MessagePolicy(log)
{
    public override CompressionChoice Choose(string action, ReadOnlySpan<byte> sample, long length) =>
        new(codec, level, CompressionDecisionReason.Fixed, action);
}

/// <summary>A policy's choice for one message, with what the decision log and the policy's learning need.</summary>
/// <param name="Codec">The codec to try (null: raw).</param>
/// <param name="Level">Its level.</param>
/// <param name="Reason">Why.</param>
/// <param name="Action">The message's action (null below the floor).</param>
/// <param name="MaxRatio">The compressed payload must be at most this share of the message, or it goes raw.</param>
/// <param name="Key">The policy's state for the message's action and size.</param>
/// <param name="Arm">The adaptive policy's choice index; -1 for the other policies.</param>
/// <param name="PredictedRatio">The adaptive policy's expected ratio.</param>
/// <param name="LinkBytesPerSecond">The link rate the adaptive policy assumed.</param>
/// <param name="CpuUtilization">The CPU use the policy last measured.</param>
/// <param name="Goal">The adaptive policy's model.</param>
/// <param name="LinkSource">Where the assumed link rate came from (<c>prior</c>, <c>round_trip</c>, <c>blocked_writes</c>, <c>send_rate</c>, <c>cpu_bound</c>).</param>
/// <param name="PredictedRate">The model's messages per second for the chosen step (throughput) or 1 ÷ its latency.</param>
/// <param name="RawPredictedRate">The same for raw.</param>
/// <param name="Timed">The encoder reads <see cref="Framing.CodecClock"/> around the codec: the adaptive policy times this message
/// (<see cref="AdaptivePolicy.TimingInterval"/>).</param>
/// <param name="Warm">The key's previous message took the same step: its call's time is the step's, not a cold cache's.</param>
/// <param name="LatencyCpu">The latency model's CPU seconds for the chosen step (compressing under the load, and
/// decoding), which a measured call's cycle is taken beyond (<see cref="MeasuredLatency"/>); NaN outside the latency model.</param>
internal readonly record struct CompressionChoice(
    CompressionCodec? Codec,
    int Level,
    CompressionDecisionReason Reason,
    string? Action,
    double MaxRatio = 1,
    object? Key = null,
    int Arm = -1,
    double PredictedRatio = double.NaN,
    double LinkBytesPerSecond = double.NaN,
    double CpuUtilization = double.NaN,
    CompressionGoal? Goal = null,
    string? LinkSource = null,
    double PredictedRate = double.NaN,
    double RawPredictedRate = double.NaN,
    bool Timed = false,
    bool Warm = false,
    double LatencyCpu = double.NaN)
{
    public static CompressionChoice BelowFloor { get; } = new(null, 0, CompressionDecisionReason.BelowFloor, null);

    /// <summary>Raw to a peer on this machine.</summary>
    public static CompressionChoice LocalPeer(string? action) => new(null, 0, CompressionDecisionReason.LocalPeer, action ?? string.Empty);
}
