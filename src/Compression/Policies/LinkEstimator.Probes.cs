using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// What a probe holds: the cheapest compressing step below a dearer choice (<see cref="Cheaper"/>), the step above the
/// cheapest one or raw (<see cref="Dearer"/>), or raw in place of the cheapest compressing step (<see cref="Raw"/>).
/// </summary>
internal enum ProbeKind
{
    Cheaper,
    Dearer,
    Raw,
}

/// <summary>
/// The link estimator's probes: a window at another step that tells whether the CPU or the link held the choice back,
/// or (<see cref="ProbeKind.Raw"/>) whether raw sends more messages than the cheapest codec where the CPU bounds both.
/// </summary>
internal sealed partial class LinkEstimator
{
    /// <summary>The ladder step a probe under way holds, or -1.</summary>
    public int ProbeHeld => Volatile.Read(ref _probeWindows) > 0 ? Volatile.Read(ref _probeStep) : -1;

    /// <summary>
    /// The ladder step a probe holds now, or -1: one under way, or one started now when <paramref name="step"/> is a
    /// step to probe (the estimate is <c>cpu_bound</c>; -1 ends one under way), the last send window was busy with at
    /// least <see cref="CarriedRate.MinMessages"/> messages while the CPU was busy and the link's capacity unknown, and
    /// the last probe started at least <see cref="ProbeInterval"/> ago (a <see cref="ProbeKind.Dearer"/> or
    /// <see cref="ProbeKind.Raw"/> one at least its own backed-off interval ago: <see cref="UpwardProbeIntervalMax"/>).
    /// It holds its step until two send windows have ended.
    /// </summary>
    public int Probe(long now, int step, ProbeKind kind = ProbeKind.Cheaper)
    {
        // Most decisions neither run nor may start a probe: they answer without the lock.
        if (!_measure || (Volatile.Read(ref _probeWindows) == 0 && !(step >= 0 && Volatile.Read(ref _windowCpuBound))))
        {
            return -1;
        }

        lock (_gate)
        {
            if (step < 0)
            {
                // The estimate left cpu_bound (the link showed its capacity, or the CPU calmed): nothing to probe.
                _probeWindows = 0;
            }
            else if (_probeWindows == 0 && _windowCpuBound && StartDue(now, kind))
            {
                (_probeWindows, _probeAt, _probeStep, _probeKind, _beforeProbe) = (ProbeWindows, now, step, kind, (_messageRate, _sendRate));
                if (kind != ProbeKind.Cheaper)
                {
                    _backedOffAt[(int)kind] = now;
                }
            }

            return _probeWindows > 0 ? _probeStep : -1;
        }
    }

    /// <summary>Whether a probe is under way or one may start (the last send window was full and CPU-bound).</summary>
    public bool ProbeArmed => _measure && (Volatile.Read(ref _probeWindows) > 0 || Volatile.Read(ref _windowCpuBound));

    /// <summary>
    /// Whether a probe of <paramref name="kind"/> may start now (<see cref="Probe"/>), read without the lock: the policy
    /// works out whether and what to probe only then, not on every decision of a busy CPU.
    /// </summary>
    public bool ProbeDue(long now, ProbeKind kind) =>
        _measure && Volatile.Read(ref _probeWindows) == 0 && Volatile.Read(ref _windowCpuBound) && StartDue(now, kind);

    /// <summary>
    /// Whether the last <see cref="ProbeKind.Raw"/> probe, within <see cref="CarriedRate.HeldFor"/>, showed raw sending
    /// at least as many messages a second as the cheapest codec.
    /// </summary>
    public bool RawWins(long now)
    {
        long until = Volatile.Read(ref _rawWinsUntil);
        return until != long.MinValue && now < until;
    }

    /// <summary>
    /// Whether the intervals since the last probe (and the last of a backed-off <paramref name="kind"/>) allow one to
    /// start. A raw probe also needs two busy windows in a row: it is judged against the window before it, and the
    /// first window of a burst (cold peers, the exploration that follows a change) sent a third fewer messages than
    /// the choice sends steadily, which made raw look faster than a codec that was not.
    /// </summary>
    private bool StartDue(long now, ProbeKind kind)
    {
        long probeAt = Volatile.Read(ref _probeAt);
        long kindAt = kind == ProbeKind.Cheaper ? long.MinValue : Volatile.Read(ref _backedOffAt[(int)kind]);
        return (probeAt == long.MinValue || now - probeAt >= _probeTicks)
            && (kindAt == long.MinValue || now - kindAt >= Volatile.Read(ref _backOffTicks[(int)kind]))
            && (kind != ProbeKind.Raw || !double.IsNaN(Volatile.Read(ref _previousSendRate)));
    }

    /// <summary>A change of link: back-offs and the raw verdict were of the old one.</summary>
    private void ResetProbes()
    {
        Array.Fill(_backOffTicks, _probeTicks);
        _rawWinsUntil = long.MinValue;
    }

    /// <summary>
    /// Whether the probe's window was bound by the link: the cheapest compressing choice costs the least CPU a message
    /// on both ends, yet it sent at most <see cref="ProbeFewer"/> of the messages a second the dearer choice sent in
    /// the window before, while that one's bytes a second were at least <see cref="CarriedRate.KeptFrom"/> of the
    /// probe's: both filled the same link. On 100 Mbit/s the raw rate of a probe of LZ4 (45 MB/s) only lifted an
    /// estimate of 61 MB/s, and the policy sent LZ4 a fifth of the time on a link LZ4 filled at 60% of zstd's replies.
    /// </summary>
    private bool LinkBoundProbe()
    {
        (double messages, double wire) = _beforeProbe;
        return _messageRate <= ProbeFewer * messages && wire >= CarriedRate.KeptFrom * _sendRate;
    }

    /// <summary>
    /// An upward probe ended. The dearer step costs more CPU a message, so where it sent at least 1/<see
    /// cref="ProbeFewer"/> of the messages a second the model's choice sent in the window before, with bytes a second at
    /// least <see cref="CarriedRate.KeptFrom"/> of that choice's, the CPU did not hold that choice back: the link did,
    /// and the higher of the two windows' rates is its capacity. On 100 Mbit/s the raw rate of LZ4's own windows (51
    /// MB/s, four times the link) made LZ4 look right at 68–70% CPU, and the policy served 0.64× of zstd 3. A probe
    /// that shows no such thing doubles the upward interval (to <see cref="UpwardProbeIntervalMax"/>): where the CPU
    /// bounds the choice, each costs a window at a slower step.
    /// </summary>
    private void UpwardProbeEnded(long now)
    {
        (double messages, double wire) = _beforeProbe;
        if (double.IsNaN(_messageRate) || double.IsNaN(messages))
        {
            return; // an idle stretch or a thin window: nothing shown either way
        }

        bool shown = _messageRate * ProbeFewer >= messages && _sendRate >= CarriedRate.KeptFrom * wire;
        if (shown)
        {
            _carried.Probed(Math.Max(wire, _sendRate), now);
        }

        BackOff(ProbeKind.Dearer, shown);
    }

    /// <summary>
    /// A raw probe ended, held in place of the cheapest codec where the model priced the two within
    /// <c>AdaptivePolicy.RawTiedWithin</c> of each other. Both were bound by the CPU, and the model cannot see all of
    /// what a compressed message costs beside raw (the transport's and the peer's work on its bytes, what the codec's
    /// clock leaves out): where raw sent at least the messages a second the codec sent in the window before, raw is
    /// the faster choice (<see cref="RawWins"/>) for <see cref="CarriedRate.HeldFor"/>. On 1 Gbit/s complex 16 KB the
    /// model chose LZ4 (a 0.92 ratio) 1–3% ahead of raw in every round of README's grid at cd62fda, and static LZ4
    /// served 0.91× of uncompressed. Otherwise the next raw probe waits twice as long.
    /// </summary>
    private void RawProbeEnded(long now)
    {
        (double messages, _) = _beforeProbe;
        if (double.IsNaN(_messageRate) || double.IsNaN(messages))
        {
            return;
        }

        bool shown = _messageRate >= messages;
        _rawWinsUntil = shown ? now + _heldTicks : long.MinValue;
        BackOff(ProbeKind.Raw, shown);
    }

    /// <summary>A probe of <paramref name="kind"/> that showed what it looked for keeps the usual interval; one that did not doubles it.</summary>
    private void BackOff(ProbeKind kind, bool shown) =>
        _backOffTicks[(int)kind] = shown ? _probeTicks : Math.Min(2 * _backOffTicks[(int)kind], _upwardMaxTicks);
}
