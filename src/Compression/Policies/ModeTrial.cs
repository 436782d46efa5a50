using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>What the adaptive policy sends while a <see cref="ModeTrial"/> runs or holds its verdict.</summary>
internal enum TrialMode
{
    /// <summary>No trial: the model's choice, exploring as usual.</summary>
    None,

    /// <summary>A trial's epoch of the model's choice, without exploring.</summary>
    Model,

    /// <summary>Every message raw.</summary>
    Raw,

    /// <summary>Every message at the ladder's first codec (its cheapest).</summary>
    Cheapest,
}

/// <summary>
/// Measures what the model cannot see (docs/compression.md, "The trial"): on a link this process does not fill, every
/// link rate it can observe is a lower bound, and the send rate is the current choice's own, so the model cannot tell
/// whether raw or the cheapest codec would go faster. Unless the goal is latency, once messages go out at
/// <see cref="MinMessagesPerSecond"/> or more a trial alternates 100 ms epochs of three modes (the model's choice, all
/// raw, all at the cheapest codec) for <see cref="Rounds"/> rounds, in an order turned by one each round, and counts
/// the bytes (before compression) sent in each epoch after its first 10 ms: with callers waiting on their replies,
/// that is the service's throughput under the mode, whatever limits it (this process's CPU, the link, the peers'). A
/// mode under half the model's rate in two rounds leaves the trial. A mode whose median ratio to the model's rate is
/// at least 1 + <see cref="Margin"/> is held for <see cref="Hold"/>, else the model decides for as long; the hold
/// ends early when the held mode's rate stays under 0.7 of what the trial measured for two 1-second windows (the link
/// or the load changed), or after <see cref="IdleGap"/> without messages.
/// </summary>
internal sealed class ModeTrial
{
    public const int Rounds = 4;
    public const double MinMessagesPerSecond = 200;
    public const double Margin = 0.05;
    public static readonly TimeSpan Epoch = TimeSpan.FromMilliseconds(100);
    public static readonly TimeSpan Hold = TimeSpan.FromSeconds(20);
    public static readonly TimeSpan IdleGap = TimeSpan.FromSeconds(5);

    private const double DropBelow = 0.5;
    private const double SlowerThan = 0.7;
    private const int Modes = 3;

    // Sends in an epoch's first 10 ms may be replies the previous mode chose.
    private static readonly long Settle = Stopwatch.Frequency / 100;
    private static readonly long RateWindow = Stopwatch.Frequency / 4;

    private readonly Lock _gate = new();
    private readonly long _epoch = Ticks(Epoch);
    private readonly long _hold = Ticks(Hold);
    private readonly long _idle = Ticks(IdleGap);
    private readonly double[,] _rates = new double[Rounds, Modes];
    private readonly bool[] _dropped = new bool[Modes];
    private readonly int[] _behind = new int[Modes];
    private bool _running;
    private int _round;
    private int _slot;
    private long _epochStart;
    private long _epochBytes;
    private TrialMode _verdict = TrialMode.None;
    private long _holdUntil;
    private double _verdictRate;
    private long _heldStart;
    private long _heldBytes;
    private int _slowWindows;
    private long _lastMessage = long.MinValue;
    private long _windowStart = long.MinValue;
    private long _windowMessages;
    private double _messagesPerSecond;

    /// <summary>The mode held since the last trial ended (<see cref="TrialMode.None"/> when the model is).</summary>
    public TrialMode Verdict
    {
        get
        {
            lock (_gate)
            {
                return _verdict;
            }
        }
    }

    /// <summary>Trials finished so far.</summary>
    public int Trials { get; private set; }

    /// <summary>
    /// The mode for a message about to be chosen; <paramref name="held"/> is true when it is a verdict, false in a
    /// trial's epoch. <paramref name="eligible"/>: trials are allowed (the goal is not latency).
    /// </summary>
    public TrialMode Next(long now, bool eligible, out bool held)
    {
        lock (_gate)
        {
            held = false;
            CountMessage(now);
            if (_running)
            {
                if (eligible)
                {
                    Advance(now);
                    if (_running)
                    {
                        return ModeOf(_round, _slot);
                    }
                }
                else
                {
                    // The goal changed under the trial: the model decides until the next one.
                    _running = false;
                    HoldFrom(now, 0);
                }
            }

            if (now < _holdUntil && !Slowed(now))
            {
                held = _verdict != TrialMode.None;
                return _verdict;
            }

            _verdict = TrialMode.None;
            _holdUntil = 0;
            if (eligible && _messagesPerSecond >= MinMessagesPerSecond)
            {
                Start(now);
                return ModeOf(0, 0);
            }

            return TrialMode.None;
        }
    }

    /// <summary>A message of <paramref name="length"/> bytes (before compression) was sent.</summary>
    public void Sent(long now, long length)
    {
        lock (_gate)
        {
            if (_running && now - _epochStart >= Settle)
            {
                _epochBytes += length;
            }
            else if (!_running)
            {
                _heldBytes += length;
            }
        }
    }

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    /// <summary>The mode of slot <paramref name="slot"/> in round <paramref name="round"/>: the order turns by one each round.</summary>
    private static TrialMode ModeOf(int round, int slot) => (TrialMode)(1 + ((round + slot) % Modes));

    private static double Median(Span<double> values)
    {
        values.Sort();
        int n = values.Length;
        return n % 2 == 1 ? values[n / 2] : (values[(n / 2) - 1] + values[n / 2]) / 2;
    }

    /// <summary>
    /// Whether the held mode's rate fell below <see cref="SlowerThan"/> of what the trial measured for it in two
    /// 1-second windows in a row: the link or the load changed, so the verdict is measured again.
    /// </summary>
    private bool Slowed(long now)
    {
        if (now - _heldStart < Stopwatch.Frequency)
        {
            return false;
        }

        double rate = _heldBytes * (double)Stopwatch.Frequency / (now - _heldStart);
        _slowWindows = rate < SlowerThan * _verdictRate ? _slowWindows + 1 : 0;
        _heldStart = now;
        _heldBytes = 0;
        return _slowWindows >= 2;
    }

    /// <summary>Messages per second over the last full 250 ms window; an idle gap ends a verdict.</summary>
    private void CountMessage(long now)
    {
        if (_lastMessage != long.MinValue && now - _lastMessage >= _idle)
        {
            _holdUntil = 0;
            _verdict = TrialMode.None;
            _running = false;
            _windowStart = long.MinValue;
        }

        _lastMessage = now;
        if (_windowStart == long.MinValue)
        {
            _windowStart = now;
            _windowMessages = 0;
            _messagesPerSecond = 0;
        }

        _windowMessages++;
        if (now - _windowStart >= RateWindow)
        {
            _messagesPerSecond = _windowMessages * (double)Stopwatch.Frequency / (now - _windowStart);
            _windowStart = now;
            _windowMessages = 0;
        }
    }

    private void Start(long now)
    {
        _running = true;
        _round = 0;
        _slot = 0;
        _epochStart = now;
        _epochBytes = 0;
        Array.Clear(_rates);
        Array.Clear(_dropped);
        Array.Clear(_behind);
    }

    /// <summary>Closes the epoch when its time is up and moves to the next mode still in the trial, or ends the trial.</summary>
    private void Advance(long now)
    {
        if (now - _epochStart < _epoch)
        {
            return;
        }

        int mode = (int)ModeOf(_round, _slot) - 1;
        _rates[_round, mode] = _epochBytes * (double)Stopwatch.Frequency / Math.Max(1, now - _epochStart - Settle);
        do
        {
            if (++_slot == Modes)
            {
                DropLosers(_round);
                _slot = 0;
                if (++_round == Rounds)
                {
                    Decide(now);
                    return;
                }
            }
        }
        while (_dropped[(int)ModeOf(_round, _slot) - 1]);

        _epochStart = now;
        _epochBytes = 0;
    }

    /// <summary>A mode under half the model's rate in two rounds leaves the trial (one round may be a stall).</summary>
    private void DropLosers(int round)
    {
        double model = _rates[round, 0];
        if (model <= 0)
        {
            return;
        }

        for (int mode = 1; mode < Modes; mode++)
        {
            if (!_dropped[mode] && _rates[round, mode] < DropBelow * model && ++_behind[mode] == 2)
            {
                _dropped[mode] = true;
            }
        }
    }

    private void Decide(long now)
    {
        _running = false;
        Trials++;
        TrialMode best = TrialMode.None;
        double bestRatio = 1 + Margin;
        Span<double> ratios = stackalloc double[Rounds];
        for (int mode = 1; mode < Modes; mode++)
        {
            int count = 0;
            for (int round = 0; round < Rounds && !_dropped[mode]; round++)
            {
                if (_rates[round, 0] > 0)
                {
                    ratios[count++] = _rates[round, mode] / _rates[round, 0];
                }
            }

            // A round whose model epoch sent nothing (a stall) gives no ratio: too little to overrule the model.
            double median = count == Rounds ? Median(ratios) : 0;
            if (median >= bestRatio)
            {
                bestRatio = median;
                best = (TrialMode)(mode + 1);
            }
        }

        _verdict = best;
        Span<double> own = stackalloc double[Rounds];
        for (int round = 0; round < Rounds; round++)
        {
            own[round] = _rates[round, (int)(best == TrialMode.None ? TrialMode.Model : best) - 1];
        }

        HoldFrom(now, Median(own));
    }

    private void HoldFrom(long now, double rate)
    {
        _holdUntil = now + _hold;
        _verdictRate = rate;
        _heldStart = now;
        _heldBytes = 0;
        _slowWindows = 0;
    }
}
