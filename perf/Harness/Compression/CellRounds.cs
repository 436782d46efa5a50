namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// Rounds of one message class and size (<see cref="BenchProfile.Rounds"/>): every contender is measured once per
/// round, each round in its own order, drawn so that no contender follows the same contender twice in a cell (as far
/// as the count allows). A contender runs slower after a CPU-heavy one for longer than its 2 s warm-up (docs/perf.md,
/// "Rounds"), so an order that kept neighbours — a rotation does — charged one contender that cost in every round.
/// A slow stretch of a busy machine then lands on different contenders in each round too. A cell is its median round
/// (by ops/s), whose other figures and decisions come with it, so they stay consistent.
/// </summary>
public static class CellRounds
{
    // Draws per round; the first that repeats no predecessor, else the one that repeats the fewest, is kept. For nine
    // contenders about a third of the draws repeat none in the second round, one in eight in the third.
    private const int Draws = 64;

    /// <summary>
    /// The order of each of <paramref name="rounds"/> rounds: shuffles seeded with <paramref name="seed"/> (the same
    /// seed, the same orders), each the draw that gives the fewest contenders a predecessor they had in an earlier
    /// round of the cell; the first of a round follows the last of the round before.
    /// </summary>
    public static IReadOnlyList<IReadOnlyList<T>> Orders<T>(IReadOnlyList<T> contenders, int rounds, int seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(rounds);
        var random = new Random(seed);
        var seen = new HashSet<(int Before, int After)>();
        var orders = new List<IReadOnlyList<T>>(rounds);
        int last = -1;
        for (int round = 0; round < rounds; round++)
        {
            int[] best = [];
            int fewest = int.MaxValue;
            for (int draw = 0; draw < Draws && fewest > 0; draw++)
            {
                int[] order = [.. Enumerable.Range(0, contenders.Count)];
                random.Shuffle(order);
                int repeats = Pairs(order, last).Count(seen.Contains);
                if (repeats < fewest)
                {
                    (best, fewest) = (order, repeats);
                }
            }

            seen.UnionWith(Pairs(best, last));
            last = best.Length == 0 ? last : best[^1];
            orders.Add([.. best.Select(i => contenders[i])]);
        }

        return orders;
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

    /// <summary>A seed from a cell's name that is the same in every process and run (string hashes are not).</summary>
    public static int Seed(string cell)
    {
        uint hash = 2166136261;
        foreach (char c in cell)
        {
            hash = (hash ^ c) * 16777619;
        }

        return (int)(hash & int.MaxValue);
    }

    private static IEnumerable<(int Before, int After)> Pairs(int[] order, int last)
    {
        for (int i = 0; i < order.Length; i++)
        {
            int before = i == 0 ? last : order[i - 1];
            if (before >= 0)
            {
                yield return (before, order[i]);
            }
        }
    }
}
