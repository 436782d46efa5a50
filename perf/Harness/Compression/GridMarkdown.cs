using System.Globalization;
using System.Text;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The grid's sections of results.md: what the profile leaves out, the message classes' measured ratios against the
/// ratio each claims, the verdicts per cell (both policies side by side) and the recovery after the rate change.
/// </summary>
public static class GridMarkdown
{
    /// <summary>The codec and level whose ratio stands for a class's compressibility (DEFLATE 6, what the 2011 encoders used).</summary>
    public const string ReferenceCodec = "Deflate";
    public const int ReferenceLevel = 6;

    public static void LeftOut(StringBuilder md, BenchReport report)
    {
        if (report.Omissions.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## What this profile leaves out of the grid").AppendLine();
        foreach (string omission in report.Omissions)
        {
            md.AppendLine("- " + omission);
        }
    }

    /// <summary>Per grid class and size: DEFLATE 6's ratio on the captured reply (the class's claim), and the range over every codec swept.</summary>
    public static void ClassRatios(StringBuilder md, BenchReport report)
    {
        var points = report.Sweep.Where(p => MessageClassCatalog.GridNames.Contains(p.Class)).GroupBy(p => (p.Class, p.Size)).ToList();
        if (points.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Message classes: measured ratios").AppendLine()
            .AppendLine($"Frame bytes / message bytes of one captured reply (the codec sweep; the mix's is its third message). The class's ratio is {ReferenceCodec} {ReferenceLevel}'s " +
                "at 16 KB and above; 1 KB compresses worse because it is short.").AppendLine()
            .AppendLine("| class | size | message bytes | claimed | deflate-6 ratio | in band | lowest–highest ratio (codec) |").AppendLine("|---|--:|--:|--:|--:|---|---|");
        foreach (var group in points.OrderBy(g => g.Key.Class).ThenBy(g => g.Key.Size == GridMessages.Mix ? int.MaxValue : g.Key.Size))
        {
            GridKind kind = GridMessages.Kind(group.Key.Class);
            SweepPoint? reference = group.FirstOrDefault(p => p.Codec == ReferenceCodec && p.Level == ReferenceLevel);
            SweepPoint low = group.MinBy(p => p.Ratio)!, high = group.MaxBy(p => p.Ratio)!;
            string inBand = reference is null ? "not swept"
                : group.Key.Size is > 0 and < 16 * GridMessages.Kilobyte ? "(short)"
                : reference.Ratio >= kind.Band.Low && reference.Ratio <= kind.Band.High ? "yes" : "no";
            md.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"| {group.Key.Class} | {GridMessages.Label(group.Key.Size)} | {group.First().MessageBytes:N0} | {kind.ClaimedRatio:0.0} ({kind.Band.Low:0.00}–{kind.Band.High:0.00}) | " +
                $"{(reference is null ? "-" : reference.Ratio.ToString("0.000", CultureInfo.InvariantCulture))} | {inBand} | " +
                $"{low.Ratio:0.000} ({low.Codec.ToLowerInvariant()}-{low.Level}) – {high.Ratio:0.000} ({high.Codec.ToLowerInvariant()}-{high.Level}) |"));
        }
    }

    /// <summary>
    /// One row per cell: the oracle, adaptive / oracle (held out, <see cref="HeldOutOracle"/>) and / the highest
    /// median, adaptive / uncompressed, rules-2011 / oracle, and adaptive / oracle round by round.
    /// </summary>
    public static void Verdicts(StringBuilder md, BenchReport report)
    {
        var cells = PolicyVerdicts.PerCell(report.Policies);
        if (cells.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Verdicts per cell").AppendLine()
            .AppendLine($"Goals: adaptive ≥ {PolicyVerdicts.OracleGoal:0.00} × oracle (the cell's best static contender) and ≥ {PolicyVerdicts.UncompressedGoal:0.00} × uncompressed. " +
                $"Met {cells.Count(c => c.Adaptive?.Met == true)} of {cells.Count(c => c.Adaptive is not null)} cells; " +
                $"{cells.Count(c => c.Adaptive?.MetAgainstHighestMedian == true)} against the highest median. The misses and why are under the decisions below.").AppendLine();
        if (Rounds(report))
        {
            md.AppendLine("Each cell is the median of its rounds. The oracle's figure is held out from its choice: in each round, the ops/s of the static contender " +
                "the other rounds rank best, and the median of those (the highest of several close medians overstates the best static contender). " +
                "\"Per round\" divides adaptive's ops/s by that figure in the same round, a paired view of the noise.").AppendLine();
        }

        md.AppendLine("| link | clients | class | size | oracle | adaptive / oracle | adaptive / highest median | adaptive / uncompressed | adaptive goal | rules-2011 / oracle | adaptive / oracle per round |")
            .AppendLine("|---|--:|---|--:|---|--:|--:|--:|---|--:|---|");
        foreach (CellVerdict c in cells)
        {
            int clients = report.Links.FirstOrDefault(l => l.Name == c.Link)?.Clients ?? 0;
            string goal = c.Adaptive is null ? "-" : c.Adaptive.Met ? "met" : "missed";
            md.AppendLine($"| {c.Link} | {clients} | {c.Class} | {BenchReport.SizeLabel(c.Class, c.Size)} | {c.Oracle} | {Ratio(c.Adaptive?.VersusOracle)} | " +
                $"{Ratio(c.Adaptive?.VersusHighestMedian)} | {Ratio(c.Adaptive?.VersusUncompressed)} | {goal} | {Ratio(c.Rules2011?.VersusOracle)} | {PerRound(report, c)} |");
        }
    }

    private static bool Rounds(BenchReport report) => report.Cells.Any(c => c.RoundOpsPerSecond is not null);

    /// <summary>Adaptive's ops/s over the oracle's held-out figure, round by round; "-" without rounds to hold out.</summary>
    private static string PerRound(BenchReport report, CellVerdict verdict)
    {
        IReadOnlyList<double>? adaptive = report.Cells.FirstOrDefault(c => c.Link == verdict.Link && c.Class == verdict.Class && c.Size == verdict.Size
            && c.Contender == ContenderCatalog.AdaptiveName)?.RoundOpsPerSecond;
        return adaptive is not null && verdict.Adaptive?.OracleRounds is { } oracle && adaptive.Count == oracle.Count
            ? string.Join(" ", adaptive.Zip(oracle, (a, o) => Ratio(a / o)))
            : "-";
    }

    /// <summary>Each policy's recovery after the mid-run change, and every contender's mean before and after.</summary>
    public static void RateChange(StringBuilder md, BenchReport report)
    {
        if (report.RateChange is not { } change)
        {
            return;
        }

        md.AppendLine().AppendLine($"## Link rate changed mid-run: {change.Name}").AppendLine();
        if (report.RateChangeLink is { } link)
        {
            md.AppendLine($"Link: {link.Description}; {link.Clients} clients.").AppendLine();
        }

        md.AppendLine(string.Create(CultureInfo.InvariantCulture,
            $"Replies are counted in {Recovery.BucketSeconds} s buckets from GO. A static contender's throughput at the new rate is its mean from {Recovery.SettleSeconds} s after " +
            $"the change to the end; the best of them is the target. A policy has recovered at the first bucket boundary after the change from which its mean over " +
            $"{Recovery.RollingSeconds} s, and its mean to the end, reach {Recovery.Target:0.00} × the target; the goal is within {Recovery.GoalSeconds} s.")).AppendLine();
        var recoveries = report.Recoveries;
        md.AppendLine("| policy | class | size | ops/s before | ops/s after | best static after | recovered after | goal |").AppendLine("|---|---|--:|--:|--:|---|--:|---|");
        foreach (RateRecovery r in recoveries)
        {
            md.AppendLine($"| {r.Contender} | {r.Class} | {BenchReport.SizeLabel(r.Class, r.Size)} | {Num(r.BeforeOps)} | {Num(r.AfterOps)} | {r.Best} {Num(r.BestAfterOps)} | " +
                $"{(r.Seconds is { } s ? s.ToString("0.0", CultureInfo.InvariantCulture) + " s" : "not recovered")} | {(r.Met ? "met" : "missed")} |");
        }

        if (recoveries.Count == 0)
        {
            md.AppendLine("| (no policy contender and static contender both measured) | | | | | | | |");
        }

        md.AppendLine().AppendLine("Every contender, ops/s per second of the window (two buckets each; the change is at " +
            string.Create(CultureInfo.InvariantCulture, $"{change.AtSeconds:0.#} s):")).AppendLine();
        foreach (RateChangeCell c in report.RateChangeCells)
        {
            var seconds = c.OpsPerBucket.Chunk(2).Select(pair => Num(pair.Average()));
            md.AppendLine($"- {c.Cell.Contender}, {c.Cell.Class} {BenchReport.SizeLabel(c.Cell.Class, c.Cell.Size)}: {string.Join(" ", seconds)}");
        }
    }
}
