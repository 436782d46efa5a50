namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// Rounds of one message class and size (<see cref="BenchProfile.Rounds"/>): every contender is measured once per
/// round, in an order rotated from round to round so that none is always first after the previous size or always
/// next to the same neighbour; a slow stretch of a busy machine then lands on different contenders in each round. A
/// cell is its median round (by ops/s), whose other figures and decisions come with it, so they stay consistent.
/// </summary>
public static class CellRounds
{
    /// <summary>The contenders in the order round <paramref name="round"/> (0-based) of <paramref name="rounds"/> measures them.</summary>
    public static IReadOnlyList<T> Order<T>(IReadOnlyList<T> contenders, int round, int rounds)
    {
        int offset = contenders.Count == 0 ? 0 : round * contenders.Count / rounds % contenders.Count;
        return [.. contenders.Skip(offset), .. contenders.Take(offset)];
    }

    /// <summary>
    /// The median round of a contender's cell (the lower one of an even count) with every round's ops/s in run order
    /// (<see cref="BenchCell.RoundOpsPerSecond"/>); the only round of a single-round run as it is.
    /// </summary>
    public static BenchCell Median(IReadOnlyList<BenchCell> rounds)
    {
        ArgumentOutOfRangeException.ThrowIfZero(rounds.Count);
        if (rounds.Count == 1)
        {
            return rounds[0];
        }

        BenchCell median = rounds.OrderBy(c => c.OpsPerSecond).ElementAt((rounds.Count - 1) / 2);
        return median with { RoundOpsPerSecond = [.. rounds.Select(c => c.OpsPerSecond)] };
    }
}
