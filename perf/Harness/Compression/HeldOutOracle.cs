namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The oracle's throughput, measured on rounds that did not choose it. The highest of a cell's static medians
/// overstates the best static contender wherever two or more are close: it is the largest of several noisy draws
/// (the winner's curse), which a policy that chose exactly as the best did cannot match on average. With rounds, each
/// round's figure is that round's ops/s of the static contender the other rounds rank best (the mean of their ops/s);
/// the oracle's figure is the median of those figures (the lower middle for an even count, as
/// <see cref="CellRounds.Median"/>). With one round, or statics whose rounds differ in number, there is nothing to hold
/// out and the figure is the highest median.
/// </summary>
public static class HeldOutOracle
{
    /// <summary>The held-out figure and each round's, or the highest median and null without rounds to hold out.</summary>
    public static (double OpsPerSecond, IReadOnlyList<double>? Rounds) Of(IReadOnlyList<BenchCell> statics)
    {
        ArgumentOutOfRangeException.ThrowIfZero(statics.Count);
        int rounds = statics[0].RoundOpsPerSecond?.Count ?? 0;
        if (rounds < 2 || statics.Any(s => s.RoundOpsPerSecond is not { } r || r.Count != rounds))
        {
            return (statics.Max(s => s.OpsPerSecond), null);
        }

        var figures = new double[rounds];
        for (int round = 0; round < rounds; round++)
        {
            int heldOut = round;
            BenchCell chosen = statics.MaxBy(s => MeanWithout(s.RoundOpsPerSecond!, heldOut))!;
            figures[round] = chosen.RoundOpsPerSecond![round];
        }

        return (figures.Order().ElementAt((rounds - 1) / 2), figures);
    }

    private static double MeanWithout(IReadOnlyList<double> rounds, int heldOut) =>
        rounds.Where((_, round) => round != heldOut).Average();
}
