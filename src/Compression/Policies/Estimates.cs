namespace Surrogate.Compression.Policies;

/// <summary>
/// Running estimates per ladder step: ratio (compressed ÷ original) and compression time per byte. The ratio rises
/// fast and falls slowly (half of a worse measurement, a quarter of a better one), as Kafka's producer does, so one
/// lucky message does not switch a choice; the time is an exponential moving average (α = 0.2) of samples capped at
/// <see cref="SlowestSample"/> × the estimate. Codec time is wall time, and a busy machine that deschedules the thread
/// mid-message only ever makes a codec look slower: uncapped, one message in four descheduled for ten times its work
/// made LZ4 look slower than sending 150 KB raw on 1 Gbit/s. A real slowdown still comes through, 5% a message.
/// </summary>
internal sealed class Estimates
{
    public const double SlowestSample = 1.25;

    public Estimates(int steps, long now)
    {
        Ratio = new double[steps];
        SecondsPerByte = new double[steps];
        Samples = new int[steps];
        LastTried = new long[steps];
        Array.Fill(Ratio, double.NaN);
        Array.Fill(SecondsPerByte, double.NaN);
        Array.Fill(LastTried, now);
    }

    public double[] Ratio { get; }

    public double[] SecondsPerByte { get; }

    public int[] Samples { get; }

    /// <summary>When each step was last chosen (at creation for steps never chosen).</summary>
    public long[] LastTried { get; }

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
            double time = SecondsPerByte[step];
            SecondsPerByte[step] = double.IsNaN(time) ? secondsPerByte : (0.8 * time) + (0.2 * Math.Min(secondsPerByte, SlowestSample * time));
        }

        Samples[step]++;
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
