using System.Diagnostics;

namespace Surrogate.Compression;

/// <summary>
/// The last decisions of the compressing encoders that write to it (<see cref="CompressionOptions.DecisionLog"/>): a
/// ring of fixed size, oldest overwritten first, safe to read while messages are sent. A benchmark reads it with
/// <see cref="Snapshot"/> to show what the policy chose and why.
/// </summary>
public sealed class CompressionDecisionLog
{
    private readonly CompressionDecision[] _entries;
    private readonly Lock _gate = new();
    private readonly DateTimeOffset _origin = DateTimeOffset.UtcNow;
    private readonly long _originTicks = Stopwatch.GetTimestamp();
    private long _count;

    /// <summary>Creates a log that keeps the last <paramref name="capacity"/> decisions.</summary>
    /// <param name="capacity">From 1 to 1,048,576; 4,096 by default.</param>
    /// <exception cref="ArgumentOutOfRangeException">The capacity is out of range.</exception>
    public CompressionDecisionLog(int capacity = 4096)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(capacity, 1 << 20);
        _entries = new CompressionDecision[capacity];
    }

    /// <summary>How many decisions the log keeps.</summary>
    public int Capacity => _entries.Length;

    /// <summary>How many decisions were recorded since the log was created (the ones overwritten included).</summary>
    public long Count
    {
        get
        {
            lock (_gate)
            {
                return _count;
            }
        }
    }

    /// <summary>The decisions the log holds, oldest first.</summary>
    public IReadOnlyList<CompressionDecision> Snapshot()
    {
        long start = 0;
        return Since(ref start);
    }

    /// <summary>
    /// The decisions recorded after the first <paramref name="position"/> (0, or what an earlier call left in it),
    /// oldest first: those the log still holds, at most <see cref="Capacity"/>. <paramref name="position"/> becomes
    /// <see cref="Count"/> as of the copy, so a reader that passes it back each time sees every decision once (or
    /// learns from the count how many it missed) and copies only what is new.
    /// </summary>
    /// <param name="position">A count of decisions already read; at most <see cref="Count"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="position"/> is below 0 or above <see cref="Count"/>.</exception>
    public IReadOnlyList<CompressionDecision> Since(ref long position)
    {
        lock (_gate)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(position);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(position, _count);
            int kept = (int)Math.Min(_count - position, _entries.Length);
            var copy = new CompressionDecision[kept];
            int first = (int)((_count - kept) % _entries.Length);
            for (int i = 0; i < kept; i++)
            {
                copy[i] = _entries[(first + i) % _entries.Length];
            }

            position = _count;
            return copy;
        }
    }

    internal void Add(in CompressionDecision decision)
    {
        lock (_gate)
        {
            _entries[_count % _entries.Length] = decision;
            _count++;
        }
    }

    /// <summary>The wall-clock time of a Stopwatch timestamp, from the log's creation.</summary>
    internal DateTimeOffset TimeOf(long timestamp) => _origin + Stopwatch.GetElapsedTime(_originTicks, timestamp);
}

/// <summary>One message an encoder sent, as its policy decided it.</summary>
/// <param name="Time">When the message was sent.</param>
/// <param name="Action">The message's SOAP action (empty when it had none).</param>
/// <param name="Length">The inner encoder's bytes.</param>
/// <param name="WireLength">The frame's bytes.</param>
/// <param name="Codec">The codec the policy chose (null: raw). The frame is raw anyway when <paramref name="Reason"/> is <see cref="CompressionDecisionReason.Rejected"/>.</param>
/// <param name="Level">The level the policy chose (0 when raw).</param>
/// <param name="Reason">Why.</param>
/// <param name="PredictedRatio">The ratio (compressed ÷ original) the adaptive policy expected for its choice; NaN for the other policies.</param>
/// <param name="LinkBytesPerSecond">The link rate the adaptive policy assumed; NaN for the other policies.</param>
/// <param name="CpuUtilization">This process's CPU use (0–1 of all cores) as the policy last measured it; NaN for the fixed policy.</param>
/// <param name="Goal">The model the adaptive policy used (throughput or latency); null for the other policies.</param>
public readonly record struct CompressionDecision(
    DateTimeOffset Time,
    string Action,
    long Length,
    long WireLength,
    CompressionCodec? Codec,
    int Level,
    CompressionDecisionReason Reason,
    double PredictedRatio,
    double LinkBytesPerSecond,
    double CpuUtilization,
    CompressionGoal? Goal)
{
    /// <summary>
    /// Where the adaptive policy's link rate came from: <c>prior</c> (the configured rate), <c>round_trip</c>,
    /// <c>blocked_writes</c>, <c>send_rate</c> or <c>cpu_bound</c> (docs/compression.md, "Measuring the link"); null for the other policies.
    /// </summary>
    public string? LinkSource { get; init; }

    /// <summary>The adaptive policy's predicted messages per second for its choice (throughput model) or 1 ÷ its predicted latency; NaN for the other policies.</summary>
    public double PredictedRate { get; init; }

    /// <summary>The same prediction for sending the message raw, so <see cref="PredictedRate"/> ÷ this is the gain the policy expected.</summary>
    public double RawPredictedRate { get; init; }
}

/// <summary>Why a policy sent a message as it did.</summary>
public enum CompressionDecisionReason
{
    /// <summary>The fixed policy's codec and level.</summary>
    Fixed,

    /// <summary>Below <see cref="CompressionOptions.MinMessageSize"/>: raw without asking the policy (counted by the meter, not logged).</summary>
    BelowFloor,

    /// <summary>The adaptive policy's best choice by its model.</summary>
    Model,

    /// <summary>The adaptive policy tried another choice to keep its estimates fresh.</summary>
    Exploration,

    /// <summary>The adaptive policy's best choice was above the CPU guard's current cap; the best below it was used.</summary>
    CpuGuard,

    /// <summary>A sample of the message looked incompressible (order-0 entropy of 7.5 bits per byte or more).</summary>
    Incompressible,

    /// <summary>The 2011 rules: compressed at the level its size thresholds give.</summary>
    SizeRule,

    /// <summary>The 2011 rules: not compressed, CPU above <see cref="CompressionOptions.CpuDisableLimit"/>.</summary>
    CpuDisabled,

    /// <summary>The 2011 rules: not compressed, recent ratio above <see cref="CompressionOptions.CompressionRatioDisableLimit"/>.</summary>
    RatioDisabled,

    /// <summary>Compressed, but the output did not save enough (the saving gate), so the message went raw.</summary>
    Rejected,

    /// <summary>
    /// The adaptive policy's peer is on this machine (a loopback address or a Unix domain socket): the bytes cross
    /// memory, not a link, so compressing only adds CPU and the message went raw (<see cref="CompressionOptions.RawToLocalPeers"/>).
    /// </summary>
    LocalPeer,

    /// <summary>
    /// The adaptive policy held its cheapest compressing choice for two 1-second send windows to see what raw rate
    /// this process reaches with it while its CPU, not the link, bounds it (docs/compression.md, "Probing what the CPU
    /// allows").
    /// </summary>
    CapacityProbe,
}
