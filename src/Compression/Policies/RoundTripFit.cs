namespace Surrogate.Compression.Policies;

/// <summary>
/// The link's time per byte from a session's round trips (docs/compression.md, "Measuring the link"): a recursive
/// least-squares fit with forgetting of gap = fixed + p·(bytes before compression) + q·(bytes on the wire), which
/// separates the link's time per byte (q) from the peer's (p) as long as the wire bytes vary apart from the message
/// sizes. Its <see cref="Rate"/> counts while q is known to within 25% (or 4 ms per MB), from the 10th sample since it
/// started over, as the slow end of that range; a fit that stops knowing (or says q is below zero) has none. A run of
/// three errors of one sign above four standard deviations is a change of link: the fit forgets what it knew. Not
/// thread-safe: <see cref="LinkEstimator"/> calls it under its lock.
/// </summary>
internal sealed class RoundTripFit
{
    private const double Forgetting = 0.995;
    private const int FitSamples = 10;

    // gap (ms) = c0 + p·u + q·w, with u and w in MB: q is ms per MB, 1e9 / bytes per second.
    private readonly double[] _theta = new double[3];
    private readonly double[] _cov = new double[9];
    private readonly double[] _initialVariance = [1e4, 1e6, 1e8];
    private double _noise = double.NaN;
    private int _samples;
    private int _surprises;
    private int _surpriseSign;
    private double _rate = double.NaN;

    /// <param name="priorBytesPerSecond">The configured link rate, where q starts.</param>
    public RoundTripFit(double priorBytesPerSecond)
    {
        _theta[2] = 1e9 / priorBytesPerSecond;
        for (int i = 0; i < 3; i++)
        {
            _cov[i * 4] = _initialVariance[i];
        }
    }

    /// <summary>The link rate the fit knows, in bytes per second; NaN while it does not.</summary>
    public double Rate => _rate;

    /// <summary>One round trip: <paramref name="x"/> = (1, MB before compression, MB on the wire), <paramref name="y"/> = its gap in ms. True when it revealed a change of link.</summary>
    public bool Observe(ReadOnlySpan<double> x, double y)
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
            double spread = Math.Sqrt(_noise);
            reset = Surprise(error, spread);
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
        // can raise at most 25-fold.
        double residual = error * Forgetting / denominator;
        double squared = residual * residual;
        double weight = 1.0 / Math.Min(_samples + 1, 10);
        _noise = double.IsNaN(_noise) ? Math.Max(squared, 0.01) : Math.Max(((1 - weight) * _noise) + (weight * Math.Min(squared, 25 * _noise)), 0.01);
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

    /// <summary>Counts errors far out on one side; the third in a row starts the fit over.</summary>
    private bool Surprise(double error, double spread)
    {
        if (Math.Abs(error) <= (4 * spread) + 0.2)
        {
            _surprises = 0;
            return false;
        }

        int sign = Math.Sign(error);
        _surprises = sign == _surpriseSign ? _surprises + 1 : 1;
        _surpriseSign = sign;
        if (_surprises < 3)
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
        _rate = double.NaN;
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
        _rate = known
            ? Math.Clamp(1e9 / Math.Max(Math.Max(q, 0) + (2 * spread), 1e9 / LinkEstimator.MaxBytesPerSecond), LinkEstimator.MinBytesPerSecond, LinkEstimator.MaxBytesPerSecond)
            : double.NaN;
    }
}
