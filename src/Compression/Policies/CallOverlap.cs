using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// Whether one policy's calls come one at a time: its sessions' receives and sends numbered as one sequence
/// (<see cref="Next"/>, which <see cref="RoundTripClock"/> uses to leave overlapped calls out of the latency model),
/// and of the replies in the last 1-second window, the share that answered their request with no other session's
/// message between. <see cref="Serial"/> when at least <see cref="SerialFrom"/> of at least <see cref="MinReplies"/> did.
/// <para>
/// One caller at a time waits for each reply whole, so the latency model is right for it however busy the process:
/// a serial call keeps the service's core as busy as the call is short, and in README's one-client grid at 4864e44 a
/// 1 Gbit/s service at 55% CPU read as loaded (from 60%, until below 50%) and sent zstd 3 by the throughput model where
/// LZ4 answered 1.3× as many calls. Several callers that keep a loaded service busy overlap nearly every reply, and
/// the CPU rule stands for them.
/// </para>
/// </summary>
internal sealed class CallOverlap
{
    private static readonly long Second = Stopwatch.Frequency;

    /// <summary>The share of a window's replies that must have been alone.</summary>
    public const double SerialFrom = 0.9;

    /// <summary>The fewest replies a window must hold to tell.</summary>
    public const int MinReplies = 16;

    private readonly Lock _gate = new();
    private long _events;
    private long _windowStart;
    private bool _windowStarted;
    private int _replies;
    private int _alone;
    private long _serialUntil = long.MinValue;

    /// <summary>The number of this message in the policy's sequence of receives and sends.</summary>
    public long Next() => Interlocked.Increment(ref _events);

    /// <summary>A reply to one request went out at <paramref name="now"/>; <paramref name="alone"/>: no other session's message came between.</summary>
    public void Replied(bool alone, long now)
    {
        if (!Volatile.Read(ref _windowStarted) || now - Volatile.Read(ref _windowStart) >= Second)
        {
            Roll(now);
        }

        Interlocked.Increment(ref _replies);
        if (alone)
        {
            Interlocked.Increment(ref _alone);
        }
    }

    /// <summary>Whether the last full window, ended at most 2 s before <paramref name="now"/>, was serial.</summary>
    public bool Serial(long now) => now <= Volatile.Read(ref _serialUntil);

    private void Roll(long now)
    {
        lock (_gate)
        {
            if (_windowStarted && now - _windowStart < Second)
            {
                return;
            }

            int replies = Interlocked.Exchange(ref _replies, 0);
            int alone = Interlocked.Exchange(ref _alone, 0);
            if (_windowStarted)
            {
                bool serial = replies >= MinReplies && alone >= SerialFrom * replies;
                Volatile.Write(ref _serialUntil, serial ? now + (2 * Second) : long.MinValue);
            }

            _windowStart = now;
            Volatile.Write(ref _windowStarted, true);
        }
    }
}
