using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// The link's delivered rate as far as an encoder can observe it (docs/compression.md, "Measuring the link"):
/// <list type="bullet">
/// <item>round trips of a session encoder: the time from a message sent to the peer's next message, which covers the
/// sent bytes crossing the link, the peer's work and the answer's bytes. Each one bounds the rate from below (both
/// messages' wire bytes crossed within the gap); the largest bound of the last 8 round trips (within 5 s) counts, and
/// so does the rate of a fit of the gaps (<see cref="RoundTripFit"/>), never below the bound, whose wire bytes vary
/// apart from the message sizes as exploration makes sure of. The bound is tight where the link dominates the gap
/// (slow links), the fit where the peer does (fast ones);</item>
/// <item>streamed writes that block (at least 8 KiB that took at least 0.5 ms): the socket buffer was full, so the
/// transport took them at the link's pace; these override the fit for 5 s;</item>
/// <item>the bytes sent per second over the last two 1-second windows: the link carries at least that;</item>
/// <item>the highest rate the link carried (<see cref="CarriedRate"/>): held for a minute while choices that compress
/// more send fewer bytes, and known as its capacity once calls queued on it while this process's CPU was below the low
/// watermark, kept for as long as windows nearly fill it; a capacity is the estimate, whatever the sources above
/// say;</item>
/// <item>the configured rate until any of these says otherwise.</item>
/// </list>
/// While this process's CPU is at or above the low watermark and the link's capacity is not known, every measure
/// above can be a lower bound of the current choice's making: the estimate is then at least what the last send
/// window's messages would need raw (source <c>cpu_bound</c>), so that the model weighs cheaper choices as if the link
/// carried them, until the link shows its capacity. That raw rate is the current choice's own too: a level the CPU
/// bounds sends fewer messages, so the rate falls with it and the level keeps looking right (zstd on 1 Gbit/s for a
/// whole run at 0.71× of LZ4). A probe breaks the loop: at most every <see cref="ProbeInterval"/> the policy holds its
/// cheapest compressing choice for two send windows (<see cref="Probe"/>), and the raw rate of the second, which the
/// probe's choice alone filled, counts beside the last window's for <see cref="CarriedRate.HeldFor"/>; a probe that
/// shows the link full (<see cref="LinkBoundProbe"/>) measures its capacity instead. Where the model's choice is the
/// cheapest compressing one (or raw), the raw rate keeps it right whether the CPU or the link held it back, so the
/// probe goes the other way (<see cref="UpwardProbeEnded"/>): a dearer step that sends more messages a second fills
/// the link at that choice's bytes a second, which is then its capacity.
/// A change of link the fit detects drops the bounds, and the policy explores for the next few messages.
/// <para>
/// It also tells whether this process's own sends fill the link (<see cref="Full"/>, for the Auto goal): in a busy
/// 1-second window the bytes sent per second reach 75% of the estimate (stay above 60% once full) and, by Little's
/// law, messages per second × the mean round trip says at least 1.5 calls are in flight (1.25 once full). One
/// closed-loop caller has about one in flight however slow the link; several callers that queue on a full link have
/// several. Without round trips (sessionless transports, or MeasureLink off) it is never full.
/// </para>
/// </summary>
internal sealed partial class LinkEstimator
{
    public const double MaxBytesPerSecond = 12.5e9;
    public const double MinBytesPerSecond = 1e3;

    /// <summary>Messages explored after a change of link.</summary>
    public const int BurstLength = 8;

    /// <summary>The estimate's source while a busy CPU, not the link, may bound what the current choice sends.</summary>
    public const string CpuBound = "cpu_bound";

    /// <summary>The least time from one probe's start to the next (<see cref="Probe"/>).</summary>
    public static readonly TimeSpan ProbeInterval = TimeSpan.FromSeconds(10);

    /// <summary>The longest an upward probe's interval backs off to after probes that showed the CPU bound (<see cref="Probe"/>).</summary>
    public static readonly TimeSpan UpwardProbeIntervalMax = TimeSpan.FromSeconds(80);

    private const int ProbeWindows = 2;

    /// <summary>The share of the dearer choice's messages a second below which a probe shows the link full.</summary>
    public const double ProbeFewer = 0.9;

    private const int Bounds = 8;
    private const double MinBlockedBytes = 8 * 1024;
    private const double MinBlockedSeconds = 0.0005;

    private readonly double _prior;
    private readonly bool _measure;
    private readonly Lock _gate = new();
    private readonly long _second = Stopwatch.Frequency;

    private readonly double[] _bound = new double[Bounds];
    private readonly long[] _boundAt = new long[Bounds];
    private int _bounds;
    private double _direct = double.NaN;
    private long _directAt;
    private long _windowStart;
    private long _windowBytes;
    private long _windowLength;
    private double _rawRate = double.NaN;
    private double _sendRate = double.NaN;
    private double _previousSendRate = double.NaN;
    private long _sendRateAt;
    private int _burst;
    private long _windowMessages;
    private double _gapSeconds;
    private int _gaps;
    private double _inFlight = double.NaN;
    private bool _full;
    private readonly CarriedRate _carried = new();
    private readonly long _probeTicks = (long)(ProbeInterval.TotalSeconds * Stopwatch.Frequency);
    private readonly long _heldTicks = (long)(CarriedRate.HeldFor.TotalSeconds * Stopwatch.Frequency);
    private int _probeWindows;
    private int _probeStep = -1;
    private bool _probeUpward;
    private long _upwardAt = long.MinValue;
    private long _upwardTicks;
    private readonly long _upwardMaxTicks = (long)(UpwardProbeIntervalMax.TotalSeconds * Stopwatch.Frequency);
    private bool _windowCpuBound;
    private long _probeAt = long.MinValue;
    private double _probed = double.NaN;
    private long _probedAt;
    private double _messageRate = double.NaN;
    private (double Messages, double Wire) _beforeProbe = (double.NaN, double.NaN);
    private readonly RoundTripFit _fit;

    public LinkEstimator(double priorBytesPerSecond, bool measure, long now)
    {
        _prior = priorBytesPerSecond;
        _measure = measure;
        _windowStart = now;
        _fit = new RoundTripFit(priorBytesPerSecond);
        _upwardTicks = _probeTicks;
    }

    /// <summary>The link rate in bytes per second and where it came from; <paramref name="cpuBusy"/>: this process's CPU is at or above the low watermark.</summary>
    public double Estimate(long now, out string source, bool cpuBusy = false) => Estimate(now, out source, out _, cpuBusy, out _);

    /// <summary>
    /// As <see cref="Estimate(long, out string, bool)"/>; <paramref name="capacity"/>: the rate is the link's capacity
    /// (<see cref="CarriedRate.Capacity"/>: calls queued on it while this process's CPU idled, or a probe showed it
    /// full), so the link paces what this process sends; <paramref name="measured"/>: the rate before a busy CPU
    /// lifted it to <c>cpu_bound</c> (the estimate itself otherwise).
    /// </summary>
    public double Estimate(long now, out string source, out bool capacity, bool cpuBusy, out double measured)
    {
        if (!_measure)
        {
            (source, capacity, measured) = ("prior", false, _prior);
            return _prior;
        }

        lock (_gate)
        {
            double rate = EstimateLocked(now, out source);
            measured = rate;
            capacity = _carried.Capacity(now);
            double raw = now - _probedAt <= _heldTicks && _probed > _rawRate ? _probed : _rawRate;
            if (cpuBusy && !capacity && now - _sendRateAt <= 2 * _second && raw > rate)
            {
                rate = raw;
                source = CpuBound;
            }

            return rate;
        }
    }

    private double EstimateLocked(long now, out string source)
    {
        // A known capacity is the estimate: a round trip of a reply smaller than a shaper's burst crosses faster than
        // the link carries a stream (22 MB/s on 100 Mbit/s), and LZ4 chosen at that rate sent twice zstd's bytes on a
        // full link. A link that got faster ends the capacity in two windows that carry more (CarriedRate).
        double carried = _carried.At(now);
        if (_carried.Capacity(now))
        {
            source = "send_rate";
            return carried;
        }

        double rate = _prior;
        source = "prior";
        double bound = Bound(now);
        double fitted = _fit.Rate;
        if (!double.IsNaN(fitted) || bound > 0)
        {
            rate = Math.Max(double.IsNaN(fitted) ? 0 : fitted, bound);
            source = "round_trip";
        }

        if (!double.IsNaN(_direct) && now - _directAt <= 5 * _second)
        {
            rate = _direct;
            source = "blocked_writes";
        }

        if (!double.IsNaN(_previousSendRate) && now - _sendRateAt <= 2 * _second && Math.Min(_sendRate, _previousSendRate) > rate)
        {
            rate = Math.Min(_sendRate, _previousSendRate);
            source = "send_rate";
        }

        if (carried > rate)
        {
            rate = carried;
            source = "send_rate";
        }

        return rate;
    }

    /// <summary>Calls in flight over the last busy window (messages per second × mean round trip); NaN when not known.</summary>
    public double InFlight => Volatile.Read(ref _inFlight);

    /// <summary>Whether, as of the last busy window (at most 2 s ago), several calls in flight kept the link full.</summary>
    public bool Full(long now) => Volatile.Read(ref _full) && now - Volatile.Read(ref _sendRateAt) <= 2 * _second;

    /// <summary>True (once per message, for <see cref="BurstLength"/> messages) after a change of link.</summary>
    public bool TakeBurst()
    {
        int left = Volatile.Read(ref _burst);
        while (left > 0)
        {
            int was = Interlocked.CompareExchange(ref _burst, left - 1, left);
            if (was == left)
            {
                return true;
            }

            left = was;
        }

        return false;
    }

    /// <summary>A round trip: <paramref name="gapTicks"/> from a send to the next receive, with both messages' bytes.</summary>
    public void OnRoundTrip(long gapTicks, long wireBytes, long lengthBytes, long now)
    {
        if (!_measure || gapTicks <= 0)
        {
            return;
        }

        double y = gapTicks * 1e3 / _second;
        Span<double> x = [1, lengthBytes / 1e6, wireBytes / 1e6];
        lock (_gate)
        {
            if (_fit.Observe(x, y))
            {
                // A new link: drop the old bounds and explore.
                CompressionMetrics.LinkChange();
                _bounds = 0;
                _probed = double.NaN;
                _upwardTicks = _probeTicks;
                Volatile.Write(ref _burst, BurstLength);
            }

            _gapSeconds += gapTicks / (double)_second;
            _gaps++;
            _bound[_bounds % Bounds] = Math.Min(wireBytes / (gapTicks / (double)_second), MaxBytesPerSecond);
            _boundAt[_bounds % Bounds] = now;
            _bounds++;
        }
    }

    /// <summary>The largest lower bound of the last round trips within 5 s (the newest one if all are older); 0 for none.</summary>
    private double Bound(long now)
    {
        int kept = Math.Min(_bounds, Bounds);
        if (kept == 0)
        {
            return 0;
        }

        double bound = _bound[(_bounds - 1) % Bounds];
        for (int i = 0; i < kept; i++)
        {
            if (now - _boundAt[i] <= 5 * _second)
            {
                bound = Math.Max(bound, _bound[i]);
            }
        }

        return bound;
    }

    /// <summary>A streamed frame's write of <paramref name="bytes"/> that took <paramref name="ticks"/>.</summary>
    public void OnBlockedWrite(int bytes, long ticks, long now)
    {
        double seconds = ticks / (double)_second;
        if (!_measure || bytes < MinBlockedBytes || seconds < MinBlockedSeconds)
        {
            return;
        }

        double rate = Math.Clamp(bytes / seconds, MinBytesPerSecond, MaxBytesPerSecond);
        lock (_gate)
        {
            _direct = double.IsNaN(_direct) || now - _directAt > 5 * _second ? rate : (0.7 * _direct) + (0.3 * rate);
            _directAt = now;
        }
    }

    /// <summary>
    /// A message of <paramref name="lengthBytes"/> (<paramref name="wireBytes"/> on the wire) was handed to the
    /// transport; <paramref name="cpuBusy"/>: this process's CPU is at or above the low watermark;
    /// <paramref name="peersFull"/>: the cores this process may not use are full (<see cref="CpuMonitor.PeersFull"/>).
    /// </summary>
    public void OnSent(long wireBytes, long now, long lengthBytes = 0, bool cpuBusy = false, bool peersFull = false)
    {
        if (!_measure)
        {
            return;
        }

        Interlocked.Add(ref _windowBytes, wireBytes);
        Interlocked.Add(ref _windowLength, Math.Max(lengthBytes, wireBytes));
        Interlocked.Increment(ref _windowMessages);
        if (now - Volatile.Read(ref _windowStart) < _second)
        {
            return;
        }

        lock (_gate)
        {
            long elapsed = now - _windowStart;
            if (elapsed < _second)
            {
                return;
            }

            long bytes = Interlocked.Exchange(ref _windowBytes, 0);
            double rate = bytes / (elapsed / (double)_second);
            double rawRate = Interlocked.Exchange(ref _windowLength, 0) / (elapsed / (double)_second);
            // A window that spans an idle stretch says nothing about the link; two busy ones in a row do.
            bool busy = elapsed <= 2 * _second;
            _rawRate = busy ? rawRate : double.NaN;
            // The window the probe started in was partly the choice before it; the second was the probe's alone.
            bool probed = _probeWindows > 0 && --_probeWindows == 0;
            if (probed && !_probeUpward)
            {
                (_probed, _probedAt) = (_rawRate, now);
            }

            _previousSendRate = busy && now - _sendRateAt <= 3 * _second ? _sendRate : double.NaN;
            _sendRate = busy ? rate : double.NaN;
            Volatile.Write(ref _sendRateAt, now);
            Volatile.Write(ref _windowStart, now);
            long messages = Interlocked.Exchange(ref _windowMessages, 0);
            double messageRate = messages / (elapsed / (double)_second);
            _messageRate = busy && messages >= CarriedRate.MinMessages ? messageRate : double.NaN;
            UpdateFull(busy, messageRate, now);
            _carried.Window(_sendRate, messages, _full, cpuBusy, peersFull, now);
            if (probed && _probeUpward)
            {
                UpwardProbeEnded(now);
            }
            else if (probed && LinkBoundProbe())
            {
                _carried.Probed(_sendRate, now);
            }

            // Only a full window the CPU bounded starts a probe: a slow link's few messages per window, or a CPU
            // sample caught high for a moment, would spend two windows on the cheapest codec for nothing.
            _windowCpuBound = busy && cpuBusy && messages >= CarriedRate.MinMessages && !_carried.Capacity(now);
        }
    }

    /// <summary>At the end of a send window: calls in flight by Little's law, and whether they fill the link (with hysteresis).</summary>
    private void UpdateFull(bool busy, double messagesPerSecond, long now)
    {
        if (!busy || _gaps > 0)
        {
            Volatile.Write(ref _inFlight, busy ? messagesPerSecond * _gapSeconds / _gaps : double.NaN);
        }

        _gapSeconds = 0;
        _gaps = 0;
        bool was = _full;
        double used = _sendRate / EstimateLocked(now, out _);
        bool full = busy && _inFlight >= (was ? 1.25 : 1.5) && used >= (was ? 0.6 : 0.75);
        Volatile.Write(ref _full, full);
    }
}
