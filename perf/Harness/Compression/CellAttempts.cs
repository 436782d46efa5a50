namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// A round measured again while a hypervisor stole more than <see cref="MaxStolenShare"/> of the machine's CPU time
/// in its window (<see cref="BenchCell.StolenShare"/>), at most <see cref="MostAttempts"/> times in all; the attempt
/// with the least stolen time counts. Such a window runs slow for every contender alike, but lands on one contender of
/// a round, and a stretch over two of a cell's three rounds sets its median (docs/perf.md, "Stolen time" under "Caveats").
/// </summary>
public static class CellAttempts
{
    public const double MaxStolenShare = 0.05;

    public const int MostAttempts = 3;

    /// <summary>Whether <paramref name="attempts"/> (in order) call for another: the last had too much stolen, and attempts are left.</summary>
    public static bool Another(IReadOnlyList<BenchCell> attempts) =>
        attempts.Count is > 0 and < MostAttempts && attempts[^1].StolenShare > MaxStolenShare;

    /// <summary>The attempt that counts, the least stolen (the earliest of equals), with how many there were.</summary>
    public static BenchCell Keep(IReadOnlyList<BenchCell> attempts) =>
        attempts.MinBy(a => a.StolenShare ?? 0)! with { Attempts = attempts.Count };
}
