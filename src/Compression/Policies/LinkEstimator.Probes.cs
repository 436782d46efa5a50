using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>The link estimator's capacity probes: a window at another step that tells whether the CPU or the link held the choice back.</summary>
internal sealed partial class LinkEstimator
{
    /// <summary>The ladder step a probe under way holds, or -1.</summary>
    public int ProbeHeld => Volatile.Read(ref _probeWindows) > 0 ? Volatile.Read(ref _probeStep) : -1;

    /// <summary>
    /// The ladder step a capacity probe holds now, or -1: one under way, or one started now when
    /// <paramref name="step"/> is a step to probe (the estimate is <c>cpu_bound</c>; -1 ends one under way), the last
    /// send window was busy with at least <see cref="CarriedRate.MinMessages"/> messages while the CPU was busy and the
    /// link's capacity unknown, and the last probe started at least <see cref="ProbeInterval"/> ago (an
    /// <paramref name="upward"/> one, of a step dearer than the model's choice, at least its backed-off interval ago:
    /// <see cref="UpwardProbeIntervalMax"/>). It holds its step until two send windows have ended.
    /// </summary>
    public int Probe(long now, int step, bool upward = false)
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
            else if (_probeWindows == 0 && _windowCpuBound && StartDue(now, upward))
            {
                (_probeWindows, _probeAt, _probeStep, _probeUpward, _beforeProbe) = (ProbeWindows, now, step, upward, (_messageRate, _sendRate));
                if (upward)
                {
                    _upwardAt = now;
                }
            }

            return _probeWindows > 0 ? _probeStep : -1;
        }
    }

    /// <summary>Whether a probe is under way or one may start (the last send window was full and CPU-bound).</summary>
    public bool ProbeArmed => _measure && (Volatile.Read(ref _probeWindows) > 0 || Volatile.Read(ref _windowCpuBound));

    /// <summary>
    /// Whether an upward probe may start now (<see cref="Probe"/>), read without the lock: the policy works out the
    /// step to probe only then, not on every decision of a busy CPU.
    /// </summary>
    public bool UpwardProbeDue(long now) =>
        _measure && Volatile.Read(ref _probeWindows) == 0 && Volatile.Read(ref _windowCpuBound) && StartDue(now, upward: true);

    /// <summary>Whether the intervals since the last probe (and, for an <paramref name="upward"/> one, the last upward one) allow one to start.</summary>
    private bool StartDue(long now, bool upward)
    {
        long probeAt = Volatile.Read(ref _probeAt);
        long upwardAt = Volatile.Read(ref _upwardAt);
        return (probeAt == long.MinValue || now - probeAt >= _probeTicks)
            && (!upward || upwardAt == long.MinValue || now - upwardAt >= Volatile.Read(ref _upwardTicks));
    }

    /// <summary>
    /// Whether the probe's window was bound by the link: the cheapest compressing choice costs the least CPU a message
    /// on both ends, yet it sent at most <see cref="ProbeFewer"/> of the messages a second the dearer choice sent in
    /// the window before, with bytes a second at least <see cref="CarriedRate.KeptFrom"/> of that one's: bytes, not
    /// CPU, held it back. On 100 Mbit/s the raw rate of a probe of LZ4 (45 MB/s) only lifted an estimate of 61 MB/s,
    /// and the policy sent LZ4 a fifth of the time on a link LZ4 filled at 60% of zstd's replies. The dearer choice
    /// need not have filled the link too: until 2026-12-06 it had to, and on 1 Gbit/s, where the CPU bounded zstd 1 at
    /// 70 MB/s and the link LZ4 at 102 MB/s with 0.82× of zstd's replies, the probe lifted the estimate instead, and
    /// LZ4 was chosen at 0.88× of zstd 1 (simple mix). Fewer bytes than that as well means fewer messages of any size:
    /// a stall, not a link.
    /// </summary>
    private bool LinkBoundProbe()
    {
        (double messages, double wire) = _beforeProbe;
        return _messageRate <= ProbeFewer * messages && _sendRate >= CarriedRate.KeptFrom * wire;
    }

    /// <summary>
    /// An upward probe ended. The dearer step costs more CPU a message, so where it sent at least 1/<see
    /// cref="ProbeFewer"/> of the messages a second the model's choice sent in the window before, the CPU did not hold
    /// that choice back: its bytes did, and the higher of the two windows' rates is the link's capacity. On 100 Mbit/s
    /// the raw rate of LZ4's own windows (51 MB/s, four times the link) made LZ4 look right at 68–70% CPU, and the
    /// policy served 0.64× of zstd 3. The dearer step need not fill the link too: until 2026-12-06 it had to send at
    /// least <see cref="CarriedRate.KeptFrom"/> of the choice's bytes a second, and on 1 Gbit/s, where zstd 1 sent
    /// 1.22× of LZ4's replies at 70 MB/s against LZ4's 102, that kept LZ4 (simple 150 KB, 0.80× of zstd). A probe
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

        if (_messageRate * ProbeFewer >= messages)
        {
            _carried.Probed(Math.Max(wire, _sendRate), now);
            _upwardTicks = _probeTicks;
        }
        else
        {
            _upwardTicks = Math.Min(2 * _upwardTicks, _upwardMaxTicks);
        }
    }
}
