namespace Surrogate.Compression.Policies;

/// <summary>
/// Measures what the link carries rather than what this process's choices deliver (docs/compression.md, "Probing the
/// link's capacity"). Where sends do not fill the link, every rate the estimator sees is a lower bound of the current
/// choice's own making: a compressed choice sends fewer bytes per second, so the link looks slower, so raw looks
/// slower by the ratio, and the choice keeps itself. A probe sends every message raw for <see cref="Length"/> and
/// counts messages and bytes: if raw went out at least <see cref="Gain"/> × as many messages per second as the send
/// window before it, the link carries raw at that pace, and the bytes per second are held for <see cref="Hold"/>. A
/// probe that finds raw no faster (a link that raw fills, or a full one) holds nothing and the next one waits twice as
/// long (from 30 s up to 4 min), so it costs at most one half-second of raw every few minutes.
/// <para>The estimator's lock guards every member but <see cref="Active"/> and <see cref="Add"/>.</para>
/// </summary>
internal sealed class CapacityProbe(long second)
{
    /// <summary>How long a probe sends raw.</summary>
    public static readonly TimeSpan Length = TimeSpan.FromMilliseconds(500);

    /// <summary>How long a probe's rate counts.</summary>
    public static readonly TimeSpan Hold = TimeSpan.FromSeconds(30);

    /// <summary>Raw's messages per second must be this much above those before the probe to count: less is noise.</summary>
    public const double Gain = 1.1;

    private static readonly TimeSpan FirstInterval = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan MaxInterval = TimeSpan.FromMinutes(4);

    private readonly long _length = Ticks(Length, second);
    private readonly long _hold = Ticks(Hold, second);
    private long _start = -1;
    private long _bytes;
    private long _messages;
    private double _baseline;
    private long _next;
    private long _interval = Ticks(FirstInterval, second);
    private double _held = double.NaN;
    private long _heldAt;

    /// <summary>Whether a probe is running: its messages go raw.</summary>
    public bool Active => Volatile.Read(ref _start) >= 0;

    /// <summary>Whether a probe may start at <paramref name="now"/>.</summary>
    public bool Due(long now) => !Active && now >= Volatile.Read(ref _next);

    /// <summary>The rate the last probe found, while it counts; NaN otherwise.</summary>
    public double Held(long now) => !double.IsNaN(_held) && now - _heldAt <= _hold ? _held : double.NaN;

    /// <summary>Starts a probe against <paramref name="messagesPerSecond"/>, those of the last send window.</summary>
    public void Start(long now, double messagesPerSecond)
    {
        _baseline = messagesPerSecond;
        Interlocked.Exchange(ref _bytes, 0);
        Interlocked.Exchange(ref _messages, 0);
        Volatile.Write(ref _start, now);
    }

    /// <summary>Counts a sent message; true when the probe's time is up and <see cref="Finish"/> is due.</summary>
    public bool Add(long wireBytes, long now)
    {
        long start = Volatile.Read(ref _start);
        if (start < 0)
        {
            return false;
        }

        Interlocked.Add(ref _bytes, wireBytes);
        Interlocked.Increment(ref _messages);
        return now - start >= _length;
    }

    /// <summary>Ends a probe whose time is up: holds its rate if raw went faster, else backs off.</summary>
    public void Finish(long now)
    {
        long start = _start;
        if (start < 0 || now - start < _length)
        {
            return;
        }

        double seconds = (now - start) / (double)second;
        double rate = Interlocked.Exchange(ref _bytes, 0) / seconds;
        double messages = Interlocked.Exchange(ref _messages, 0) / seconds;
        Volatile.Write(ref _start, -1);
        if (now - start > 2 * _length)
        {
            // Sends stopped during the probe: its rate counts the idle stretch, not the link.
            Volatile.Write(ref _next, now + _interval);
            return;
        }

        if (messages >= Gain * _baseline)
        {
            _held = Math.Min(rate, LinkEstimator.MaxBytesPerSecond);
            _heldAt = now;
            _interval = Ticks(FirstInterval, second);
        }
        else
        {
            _held = double.NaN;
            _interval = Math.Min(2 * _interval, Ticks(MaxInterval, second));
        }

        Volatile.Write(ref _next, now + _interval);
    }

    /// <summary>A change of link: what a probe found no longer holds (the next one comes when due, 30 s after a success).</summary>
    public void Forget()
    {
        _held = double.NaN;
        _interval = Ticks(FirstInterval, second);
    }

    private static long Ticks(TimeSpan span, long second) => (long)(span.TotalSeconds * second);
}
