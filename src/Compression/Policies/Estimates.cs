namespace Surrogate.Compression.Policies;

/// <summary>
/// Running estimates per ladder step: ratio (compressed ÷ original) and compression time per byte. The ratio rises
/// fast and falls slowly (half of a worse measurement, a quarter of a better one), as Kafka's producer does, so one
/// lucky message does not switch a choice. The time is the second lowest of the last <see cref="TimeSamples"/>: a
/// codec's time (<see cref="Framing.CodecClock"/>) is its work plus whatever held it up, caches that other requests'
/// work emptied and, where the clock is wall time, a thread descheduled on a busy core; the work is the floor the
/// samples lie above. A running mean of wall times capped at 1.25 × the estimate read DEFLATE 6 on 16 KB replies,
/// which the policy only explored, at 150 µs where chosen for every message it took 117 (median; docs/compression.md),
/// and kept it from a link it filled best. The second lowest, not the lowest, so that one sample timed short does not
/// set it; a lasting slowdown shows after seven samples, a speed-up after two.
/// </summary>
internal sealed class Estimates
{
    public const int TimeSamples = 8;

    private readonly double[] _times;
    private readonly int[] _timed;
    private readonly long[] _timedAt;

    public Estimates(int steps, long now)
    {
        Ratio = new double[steps];
        SecondsPerByte = new double[steps];
        Samples = new int[steps];
        LastTried = new long[steps];
        _timedAt = new long[steps];
        _times = new double[steps * TimeSamples];
        _timed = new int[steps];
        Array.Fill(Ratio, double.NaN);
        Array.Fill(SecondsPerByte, double.NaN);
        Array.Fill(LastTried, now);
        Array.Fill(_timedAt, long.MinValue);
    }

    public double[] Ratio { get; }

    public double[] SecondsPerByte { get; }

    public int[] Samples { get; }

    /// <summary>When each step was last chosen (at creation for steps never chosen).</summary>
    public long[] LastTried { get; }

    /// <summary>
    /// Whether a message at <paramref name="step"/> is timed, noting it when it is: never on a step the previous
    /// message did not use (not <paramref name="warm"/>), else until the step has <see cref="TimeSamples"/> times, then
    /// once in <paramref name="intervalTicks"/>.
    /// </summary>
    public bool TakeTiming(int step, bool warm, long now, long intervalTicks)
    {
        long last = _timedAt[step];
        if (!warm || (_timed[step] >= TimeSamples && last != long.MinValue && now - last < intervalTicks))
        {
            return false;
        }

        _timedAt[step] = now;
        return true;
    }

    /// <summary>Sets a ratio taken without a measurement (the first measurement replaces it) on a step never measured.</summary>
    public void Assume(int step, double ratio)
    {
        if (Samples[step] == 0)
        {
            Ratio[step] = ratio;
        }
    }

    /// <summary>Takes one measurement; <paramref name="secondsPerByte"/> NaN leaves the time as it was.</summary>
    public void Observe(int step, double ratio, double secondsPerByte)
    {
        double was = Ratio[step];
        Ratio[step] = Samples[step] == 0 || double.IsNaN(was) ? ratio : was + ((ratio > was ? 0.5 : 0.25) * (ratio - was));
        if (!double.IsNaN(secondsPerByte))
        {
            Span<double> times = _times.AsSpan(step * TimeSamples, TimeSamples);
            times[_timed[step] % TimeSamples] = secondsPerByte;
            _timed[step]++;
            SecondsPerByte[step] = SecondLowest(times[..Math.Min(_timed[step], TimeSamples)]);
        }

        Samples[step]++;
    }

    /// <summary>The second lowest of <paramref name="times"/>, or the only one.</summary>
    public static double SecondLowest(ReadOnlySpan<double> times)
    {
        double lowest = double.MaxValue;
        double second = double.MaxValue;
        foreach (double time in times)
        {
            if (time < lowest)
            {
                (second, lowest) = (lowest, time);
            }
            else if (time < second)
            {
                second = time;
            }
        }

        return times.Length == 1 ? lowest : second;
    }
}

/// <summary>The adaptive policy's state for one action and size class.</summary>
internal sealed class AdaptiveKey(string action, int sizeClass, int steps, long now, ulong seed)
{
    private ulong _random = seed | 1;

    public Lock Gate { get; } = new();

    public string Action => action;

    public int SizeClass => sizeClass;

    public Estimates Estimates { get; } = new(steps, now);

    /// <summary>How far the latency model was off for each step, from the calls' measured cycles.</summary>
    public MeasuredLatency Latency { get; } = new(steps);

    /// <summary>The step the key's next message takes (the second of an exploration's pair), or -1.</summary>
    public int Repeat { get; set; } = -1;

    /// <summary>The step of the key's previous message (-1 before the first).</summary>
    public int LastStep { get; set; } = -1;

    /// <summary>Messages decided for this key.</summary>
    public long Messages { get; set; }

    /// <summary>Whether the first message's sample was checked for entropy.</summary>
    public bool Checked { get; set; }

    /// <summary>
    /// Whether the last entropy check found the key's data near random (codecs without early abort are refused it);
    /// a single flag, so it is read and cleared without <see cref="Gate"/>.
    /// </summary>
    public bool LooksRandom { get; set; }

    /// <summary>A uniform number in [0, 1) (xorshift64*); call under <see cref="Gate"/>.</summary>
    public double NextDouble()
    {
        _random ^= _random >> 12;
        _random ^= _random << 25;
        _random ^= _random >> 27;
        return ((_random * 0x2545F4914F6CDD1DUL) >> 11) * (1.0 / (1UL << 53));
    }
}
