namespace Surrogate.Compression.Policies;

/// <summary>
/// For one key, what each ladder step's calls took beyond the CPU time the latency model gives the step (compressing,
/// slowed by the load, and decoding): the median of the last <see cref="Samples"/> measured cycles
/// (<see cref="RoundTripClock"/>) less that time. For a step with <see cref="Needed"/> of them, the model's time is its
/// CPU time now plus that median, which replaces the wire time: what the link did to such calls, measured, not the link
/// estimate's bytes a second. On a rate-limited link with one caller (100 Mbit/s, one client, medium 16 KB) the
/// limiter's tokens build up while the service compresses, so a call took the larger of its wire time and its CPU
/// time, not their sum: the model, which adds them, chose LZ4 where zstd 1 and 3 answered 10% faster
/// (docs/compression.md, "Measured calls in the latency model"). A step without them takes what a line through the
/// measured steps gives for its modelled wire time (<see cref="Shared"/>), so that the part all steps share (the
/// service's own work, the caller's next request) does not make it look cheaper than the measured ones, nor a misread
/// link dearer.
/// <para>
/// Only warm calls count (the first of an exploration's pair runs on cold caches), and only while calls do not
/// overlap (<see cref="SerialUpTo"/>; the clock also leaves out a call in which another session received or sent):
/// with several in flight a call's cycle is mostly its wait behind the others, and the time a dearer step costs them
/// is not in it (four callers of a service with 20 ms of serial work a reply: their cycles made zstd look as cheap as
/// LZ4). A step whose calls came out half (and at least 50 µs) above or below its median <see cref="ChangeAfter"/>
/// times in a row forgets its calls but those; where it is the model's choice, which carries the traffic, the link or
/// the load changed, and the other steps' calls are forgotten too (an explored step's warm call follows a cold one,
/// on a rate-limited link with fewer tokens left, and its surprises say less). The round-trip fit's changes of link
/// would not do: switching steps on a rate-limited link moves the round trips the way a new link does, and forgetting
/// at each switch kept the measured steps unknown. Not thread-safe: the policy calls it under the key's lock.
/// </para>
/// </summary>
internal sealed class MeasuredLatency
{
    public const int Samples = 8;
    public const int Needed = 3;
    public const int ChangeAfter = 3;

    /// <summary>Calls in flight up to which they count as one at a time.</summary>
    public const double SerialUpTo = 1.25;

    private readonly double[] _beyond;
    private readonly int[] _count;
    private readonly double[] _median;
    private readonly bool[] _known;
    private readonly int[] _surprises;

    public MeasuredLatency(int steps)
    {
        _beyond = new double[steps * Samples];
        _count = new int[steps];
        _median = new double[steps];
        _known = new bool[steps];
        _surprises = new int[steps];
    }

    /// <summary>
    /// What the steps <see cref="Known"/> at the last <see cref="Refresh"/> took beyond their modelled CPU time, as a
    /// line in their modelled wire time: this, plus <see cref="PerWire"/> × the wire time. Set by the policy after
    /// <see cref="Refresh"/> (0 and 1 when none is known).
    /// </summary>
    public double Shared { get; set; }

    /// <summary>The slope of that line (<see cref="Shared"/>).</summary>
    public double PerWire { get; set; } = 1;

    /// <summary>Whether <paramref name="step"/> had enough recent calls at the last <see cref="Refresh"/>.</summary>
    public bool Known(int step) => _known[step];

    /// <summary>What <paramref name="step"/>'s recent calls took beyond their modelled CPU time (the median).</summary>
    public double Beyond(int step) => _median[step];

    /// <summary>
    /// A warm call at <paramref name="step"/> (<paramref name="chosen"/>: the model's choice, not an exploration)
    /// took <paramref name="beyondCpu"/> seconds beyond its modelled CPU time.
    /// </summary>
    public void Observe(int step, double beyondCpu, bool chosen)
    {
        if (Changed(step, beyondCpu))
        {
            // Keep the step's surprises before this one; this one joins them below.
            Span<double> recent = stackalloc double[ChangeAfter - 1];
            for (int i = 0; i < recent.Length; i++)
            {
                recent[i] = _beyond[(step * Samples) + ((_count[step] - 1 - i + Samples) % Samples)];
            }

            if (chosen)
            {
                Array.Clear(_count);
                Array.Clear(_surprises);
            }

            (_count[step], _surprises[step]) = (0, 0);
            for (int i = recent.Length - 1; i >= 0; i--)
            {
                _beyond[(step * Samples) + _count[step]++] = recent[i];
            }
        }

        Span<double> kept = _beyond.AsSpan(step * Samples, Samples);
        kept[_count[step] % Samples] = beyondCpu;
        _count[step]++;
        Span<double> sorted = stackalloc double[Samples];
        int n = Math.Min(_count[step], Samples);
        kept[..n].CopyTo(sorted);
        sorted[..n].Sort();
        _median[step] = n % 2 == 1 ? sorted[n / 2] : (sorted[(n / 2) - 1] + sorted[n / 2]) / 2;
    }

    /// <summary>
    /// Sets <see cref="Known"/> for a decision with <paramref name="inFlight"/> calls in flight (NaN: not known, as
    /// where calls come one at a time).
    /// </summary>
    public void Refresh(double inFlight)
    {
        for (int step = 0; step < _count.Length; step++)
        {
            _known[step] = !(inFlight > SerialUpTo) && _count[step] >= Needed;
        }
    }

    /// <summary>Whether <paramref name="beyondCpu"/> is the last of <see cref="ChangeAfter"/> surprises of one sign for a known step.</summary>
    private bool Changed(int step, double beyondCpu)
    {
        if (_count[step] < Needed)
        {
            return false;
        }

        double off = beyondCpu - _median[step];
        if (Math.Abs(off) <= 0.5 * Math.Max(Math.Abs(_median[step]), 100e-6))
        {
            _surprises[step] = 0;
            return false;
        }

        int sign = Math.Sign(off);
        _surprises[step] = Math.Sign(_surprises[step]) == sign ? _surprises[step] + sign : sign;
        return Math.Abs(_surprises[step]) >= ChangeAfter;
    }
}
