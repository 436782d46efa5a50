namespace Surrogate.Compression.Policies;

/// <summary>
/// The link estimator's recursive least-squares fit with forgetting of gap = fixed + p·(bytes before compression) +
/// q·(bytes on the wire) over round trips (docs/compression.md, "Measuring the link"): q, the link's time per wire
/// byte, apart from p, the peer's work per byte, once the wire bytes vary apart from the sizes. Errors of one sign
/// beyond four standard deviations, three or more in a row, are a change of link, after which it starts over; late
/// ones only once they last <see cref="ChangeSeconds"/> (or <see cref="ChangeRun"/> in a row), since a stall makes
/// round trips late too. Not thread-safe: the estimator's lock guards it.
/// </summary>
internal sealed class RoundTripFit
{
    private const double Forgetting = 0.995;
    private const int FitSamples = 10;

    /// <summary>
    /// How long a run of late round trips must last to be a change of link: a stall of this process or its peer (a busy core
    /// descheduling it for a few milliseconds) delays every round trip in flight at once, and on loopback that was a
    /// run of three several times a second, each dropping what the estimator knew.
    /// </summary>
    private const double ChangeSeconds = 0.05;

    /// <summary>A run this long is a change of link however short (a fast link's round trips are many in 50 ms).</summary>
    private const int ChangeRun = 16;

    // gap (ms) = c0 + p·u + q·w, with u and w in MB: q is ms per MB, 1e9 / bytes per second.
    private readonly double[] _theta = new double[3];
    private readonly double[] _cov = new double[9];
    private readonly double[] _initialVariance = [1e4, 1e6, 1e8];
    private double _noise = double.NaN;
    private int _samples;
    private int _surprises;
    private int _surpriseSign;
    private double _runStart;

    public RoundTripFit(double priorBytesPerSecond)
    {
        _theta[2] = 1e9 / priorBytesPerSecond;
        for (int i = 0; i < 3; i++)
        {
            _cov[i * 4] = _initialVariance[i];
        }
    }

    /// <summary>The link rate while the fit knows q (the slow end of its range, bytes per second); NaN otherwise.</summary>
    public double Rate { get; private set; } = double.NaN;

    /// <summary>
    /// Adds a round trip (<paramref name="x"/>: 1, MB before compression, MB on the wire; <paramref name="y"/>: gap in
    /// ms) that ended at <paramref name="seconds"/>; true when it revealed a change of link.
    /// </summary>
    public bool Add(ReadOnlySpan<double> x, double y, double seconds)
    {
        Span<double> px = stackalloc double[3];
        for (int i = 0; i < 3; i++)
        {
            px[i] = (_cov[i * 3] * x[0]) + (_cov[(i * 3) + 1] * x[1]) + (_cov[(i * 3) + 2] * x[2]);
        }

        double denominator = Forgetting + (x[0] * px[0]) + (x[1] * px[1]) + (x[2] * px[2]);
        double error = y - ((_theta[0] * x[0]) + (_theta[1] * x[1]) + (_theta[2] * x[2]));
        double used = error;
        bool reset = false;
        if (_samples >= 5 && !double.IsNaN(_noise))
        {
            // The error's spread is the noise's and the fit's own uncertainty along x (least squares' innovation
            // variance, noise × denominator): a message whose wire bytes the fit has not seen vary (a raw one among
            // compressed ones of one size) is no surprise just because the fit cannot predict it yet.
            double spread = Math.Sqrt(_noise * Math.Max(denominator, 1));
            reset = Surprise(error, spread, seconds);
            used = reset ? error : Math.Clamp(error, -(3 * spread) - 0.1, (3 * spread) + 0.1);
        }

        for (int i = 0; i < 3; i++)
        {
            _theta[i] += px[i] / denominator * used;
        }

        for (int i = 0; i < 3; i++)
        {
            for (int j = 0; j < 3; j++)
            {
                _cov[(i * 3) + j] = (_cov[(i * 3) + j] - (px[i] * px[j] / denominator)) / Forgetting;
            }
        }

        BoundCovariance();

        if (reset)
        {
            // The error that revealed the change says nothing about the new link's noise.
            return true;
        }

        // The noise (ms², at least 0.1 ms squared) from the error left after the update (the one before it is large
        // while the fit is still learning): a plain mean of the first 10, then a moving average that a single outlier
        // can raise at most 25-fold. A surprise does not count: a stall is no noise of the link, and a change of link
        // must stay a surprise until the run is long enough to say so.
        if (_surprises == 0)
        {
            double residual = error * Forgetting / denominator;
            double squared = residual * residual;
            double weight = 1.0 / Math.Min(_samples + 1, 10);
            _noise = double.IsNaN(_noise) ? Math.Max(squared, 0.01) : Math.Max(((1 - weight) * _noise) + (weight * Math.Min(squared, 25 * _noise)), 0.01);
        }

        _samples++;
        UpdateRate();
        return false;
    }

    /// <summary>
    /// Forgetting inflates the uncertainty of what the samples do not excite without limit; no direction may become
    /// less certain than before the first sample (scaling its row and column keeps the matrix positive definite).
    /// </summary>
    private void BoundCovariance()
    {
        for (int i = 0; i < 3; i++)
        {
            double variance = _cov[i * 4];
            if (variance > _initialVariance[i])
            {
                double scale = Math.Sqrt(_initialVariance[i] / variance);
                for (int j = 0; j < 3; j++)
                {
                    _cov[(i * 3) + j] *= scale;
                    _cov[(j * 3) + i] *= scale;
                }
            }
        }
    }

    /// <summary>
    /// Counts errors far out on one side; three or more early in a row, or late in a row over
    /// <see cref="ChangeSeconds"/> (or <see cref="ChangeRun"/> of them), are a change of link and reset the fit.
    /// </summary>
    private bool Surprise(double error, double spread, double seconds)
    {
        if (Math.Abs(error) <= (4 * spread) + 0.2)
        {
            _surprises = 0;
            return false;
        }

        int sign = Math.Sign(error);
        _surprises = sign == _surpriseSign ? _surprises + 1 : 1;
        _surpriseSign = sign;
        if (_surprises == 1)
        {
            _runStart = seconds;
        }

        // A stall only ever makes round trips late: a run of early ones is a faster link at once.
        if (_surprises < 3 || (sign > 0 && seconds - _runStart < ChangeSeconds && _surprises < ChangeRun))
        {
            return false;
        }

        // A new link: forget the fit's certainty and its noise.
        _surprises = 0;
        for (int i = 0; i < _cov.Length; i++)
        {
            _cov[i] *= 100;
        }

        _noise = double.NaN;
        _samples = 0;
        Rate = double.NaN;
        return true;
    }

    /// <summary>
    /// The fit's rate while it knows q, else none. It needs <see cref="FitSamples"/> samples since it last started
    /// over: with few more samples than its three unknowns it explains them exactly, so its noise looks like none and
    /// any q, even one below zero, looks certain. A q below zero by more than twice its spread says the gaps are not
    /// driven by this process's wire bytes (other traffic queued ahead on a shared link): no rate either.
    /// </summary>
    private void UpdateRate()
    {
        double q = _theta[2];
        double spread = Math.Sqrt(Math.Max(_cov[8], 0) * _noise);
        bool known = _samples >= FitSamples && q >= -2 * spread && ((q > 0 && spread <= 0.25 * q) || spread <= 4.0);
        Rate = known
            ? Math.Clamp(1e9 / Math.Max(Math.Max(q, 0) + (2 * spread), 1e9 / LinkEstimator.MaxBytesPerSecond), LinkEstimator.MinBytesPerSecond, LinkEstimator.MaxBytesPerSecond)
            : double.NaN;
    }
}
