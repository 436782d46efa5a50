namespace Surrogate.Compression.Policies;

/// <summary>
/// The ratio the adaptive policy expects of a ladder step for one key. The priors describe SOAP-like text, and a key's
/// data may compress far better or worse: left at its prior, a level above the choice on data that compresses far
/// better looks worse than it is, and exploring one step at a time may never reach it (on the grid's simple 16 KB
/// replies on 1.5 Mbit/s, zstd 9 two steps above DEFLATE 6, with zstd 6 between them writing more). So a step the key
/// has not measured is predicted from the steps it has, scaled by the priors.
/// </summary>
internal static class RatioPrediction
{
    /// <summary>
    /// <paramref name="step"/>'s ratio: measured; else predicted from the key's nearest measured levels of the same
    /// codec (both sides: the geometric mean), else from its nearest measured step of any codec; else the ratio
    /// assumed when the key's first look found its data near random; else the prior.
    /// </summary>
    public static double Of(Arm[] arms, Estimates estimates, int step)
    {
        if (arms[step].Codec is null)
        {
            return 1;
        }

        if (estimates.Samples[step] > 0)
        {
            return estimates.Ratio[step];
        }

        (int below, int above) = NearestMeasured(arms, estimates, step);
        double prior = arms[step].PriorRatio;
        if (below == 0 && above == 0)
        {
            return double.IsNaN(estimates.Ratio[step]) ? prior : estimates.Ratio[step];
        }

        double fromBelow = below > 0 ? From(prior, arms[below].PriorRatio, estimates.Ratio[below]) : double.NaN;
        double fromAbove = above > 0 ? From(prior, arms[above].PriorRatio, estimates.Ratio[above]) : double.NaN;
        return double.IsNaN(fromBelow) ? fromAbove : double.IsNaN(fromAbove) ? fromBelow : Math.Sqrt(fromBelow * fromAbove);
    }

    /// <summary>Every step's ratio (<see cref="Of"/>) into <paramref name="ratios"/>, one per step of <paramref name="arms"/>.</summary>
    public static void All(Arm[] arms, Estimates estimates, Span<double> ratios)
    {
        for (int step = 0; step < arms.Length; step++)
        {
            ratios[step] = Of(arms, estimates, step);
        }
    }

    /// <summary>
    /// A ratio from another step's measurement on the same data and the two steps' priors. Data that compresses worse
    /// than the priors is taken as the priors' kind of text mixed with bytes no codec shrinks, so the saving scales
    /// (0.91 at LZ4 gives 0.89 at zstd-9, as the grid's complex messages measure); data that compresses better
    /// scales the ratio.
    /// </summary>
    public static double From(double prior, double nearPrior, double nearRatio) =>
        nearRatio >= nearPrior
            ? Math.Min(1, 1 - ((1 - prior) * (1 - nearRatio) / (1 - nearPrior)))
            : nearRatio * prior / nearPrior;

    /// <summary>
    /// The measured steps nearest <paramref name="step"/> of the same codec below and above it (levels of one codec
    /// keep their order on any data; two codecs' levels need not); without one, the nearest measured step of any codec
    /// (the lower on a tie) as the first. 0 for none.
    /// </summary>
    private static (int Below, int Above) NearestMeasured(Arm[] arms, Estimates estimates, int step)
    {
        int below = 0;
        int above = 0;
        int nearest = 0;
        for (int other = 1; other < arms.Length; other++)
        {
            if (other == step || estimates.Samples[other] == 0)
            {
                continue;
            }

            if (arms[other].Codec == arms[step].Codec)
            {
                below = other < step ? other : below;
                above = other > step && above == 0 ? other : above;
            }

            nearest = nearest == 0 || Math.Abs(other - step) < Math.Abs(nearest - step) ? other : nearest;
        }

        return below > 0 || above > 0 ? (below, above) : (nearest, 0);
    }
}
