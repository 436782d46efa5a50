using System.Globalization;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// A policy contender (adaptive, rules-2011) in one cell against the oracle, the best static contender of the same
/// link, message class and size (uncompressed, WCF's CompressionFormat, or one codec at one level), and against
/// uncompressed. <see cref="Oracle"/> names the static contender with the highest median; <see cref="OracleOpsPerSecond"/>
/// is the oracle's figure held out from its choice (<see cref="HeldOutOracle"/>, one figure a round in
/// <see cref="OracleRounds"/>), which <see cref="Met"/> judges by; <see cref="HighestMedianOpsPerSecond"/> and
/// <see cref="MetAgainstHighestMedian"/> are the same judged against the highest median. <see cref="Why"/> says, for
/// a miss, what the policy chose and what the oracle was.
/// </summary>
public sealed record PolicyVerdict(
    string Link,
    string Contender,
    string Class,
    int Size,
    double OpsPerSecond,
    string Oracle,
    double OracleOpsPerSecond,
    double? UncompressedOpsPerSecond,
    bool Met,
    string? Why,
    double HighestMedianOpsPerSecond,
    IReadOnlyList<double>? OracleRounds = null)
{
    public bool MetAgainstHighestMedian => PolicyVerdicts.Meets(OpsPerSecond, HighestMedianOpsPerSecond, UncompressedOpsPerSecond);

    public double VersusOracle => OpsPerSecond / OracleOpsPerSecond;

    public double VersusHighestMedian => OpsPerSecond / HighestMedianOpsPerSecond;

    public double? VersusUncompressed => UncompressedOpsPerSecond is { } u ? OpsPerSecond / u : null;
}

/// <summary>
/// One cell of the grid with both policies side by side: adaptive against the oracle and uncompressed, rules-2011
/// against the oracle (null where the contender did not run).
/// </summary>
public sealed record CellVerdict(string Link, string Class, int Size, string Oracle, PolicyVerdict? Adaptive, PolicyVerdict? Rules2011);

/// <summary>The policies' cells judged by the adaptive encoder's goals (issue 11): at least 0.95 × the oracle and 0.97 × uncompressed.</summary>
public static class PolicyVerdicts
{
    /// <summary>The verdicts grouped per cell (link, class, size), in the order the cells ran.</summary>
    public static IReadOnlyList<CellVerdict> PerCell(IReadOnlyList<PolicyVerdict> verdicts) =>
    [
        .. verdicts.GroupBy(v => (v.Link, v.Class, v.Size)).Select(g => new CellVerdict(g.Key.Link, g.Key.Class, g.Key.Size, g.First().Oracle,
            g.FirstOrDefault(v => v.Contender == ContenderCatalog.AdaptiveName), g.FirstOrDefault(v => v.Contender == ContenderCatalog.Rules2011Name))),
    ];

    public const double OracleGoal = 0.95;
    public const double UncompressedGoal = 0.97;

    /// <summary>Whether <paramref name="ops"/> meets both goals against an oracle figure and uncompressed (when measured).</summary>
    public static bool Meets(double ops, double oracle, double? uncompressed) =>
        ops >= OracleGoal * oracle && (uncompressed is null || ops >= UncompressedGoal * uncompressed);

    public static IReadOnlyList<PolicyVerdict> Evaluate(IReadOnlyList<BenchCell> cells)
    {
        var verdicts = new List<PolicyVerdict>();
        foreach (BenchCell cell in cells.Where(c => ContenderCatalog.Get(c.Contender).IsPolicy))
        {
            var statics = cells.Where(o => o.Link == cell.Link && o.Class == cell.Class && o.Size == cell.Size && !ContenderCatalog.Get(o.Contender).IsPolicy).ToList();
            if (statics.MaxBy(o => o.OpsPerSecond) is not { } oracle)
            {
                continue;
            }

            double? raw = statics.FirstOrDefault(o => o.Contender == ContenderCatalog.UncompressedName)?.OpsPerSecond;
            (double heldOut, IReadOnlyList<double>? rounds) = HeldOutOracle.Of(statics);
            bool met = Meets(cell.OpsPerSecond, heldOut, raw);
            verdicts.Add(new PolicyVerdict(cell.Link, cell.Contender, cell.Class, cell.Size, cell.OpsPerSecond, oracle.Contender, heldOut, raw,
                met, met ? null : Why(cell, oracle, statics), oracle.OpsPerSecond, rounds));
        }

        return verdicts;
    }

    /// <summary>What the policy sent most against the oracle's choice, and where its own choice ranked among the statics.</summary>
    private static string Why(BenchCell cell, BenchCell oracle, IReadOnlyList<BenchCell> statics)
    {
        if (cell.Decisions is not { Count: > 0 } decisions)
        {
            return $"no decisions logged; the oracle was {oracle.Contender}";
        }

        long total = decisions.Sum(d => d.Count);
        var byChoice = decisions.GroupBy(d => d.Choice)
            .Select(g => (Choice: g.Key, Share: (double)g.Sum(d => d.Count) / total, Reason: g.MaxBy(d => d.Count)!.Reason.ToLowerInvariant()))
            .OrderByDescending(g => g.Share).ToList();
        var (choice, share, reason) = byChoice[0];
        string oracleChoice = oracle.Contender == ContenderCatalog.UncompressedName ? "raw" : oracle.Contender;
        string chose = string.Create(CultureInfo.InvariantCulture, $"sent {choice} for {share:0%} of replies (logged reason: {reason})");
        if (choice == oracleChoice)
        {
            double other = 1 - share;
            return string.Create(CultureInfo.InvariantCulture,
                $"{chose}, the oracle's choice too: the gap is the other {other:0.#%} of replies (exploration, CPU guard), the policy's own cost, or run-to-run noise");
        }

        string staticSame = choice == "raw" ? ContenderCatalog.UncompressedName : choice;
        string ranked = statics.FirstOrDefault(s => s.Contender == staticSame) is { } same
            ? string.Create(CultureInfo.InvariantCulture, $" (that static contender: {same.OpsPerSecond / oracle.OpsPerSecond:0.00} × the oracle)")
            : " (not among this run's static contenders)";
        return $"{chose}{ranked}; the oracle was {oracle.Contender}: the policy's model or its estimates picked a different choice";
    }
}
