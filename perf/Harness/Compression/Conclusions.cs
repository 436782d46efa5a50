using Surrogate.Compression;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The 2011 posts' conclusions, each checked mechanically against this run's cells (2011 Orders, ratios to
/// uncompressed on the same link): what 2011 measured, what was measured here with the 2011 codec (WCF's
/// CompressionFormat.GZip, or our GZip 6 where it cannot run) and with the best modern codec (Brotli, zstd, LZ4), and
/// whether the conclusion holds. A link the run did not measure says so.
/// </summary>
public static class Conclusions
{
    public static IEnumerable<string> Check(BenchReport report)
    {
        yield return Claim(report, "1gbit", "Compression costs throughput on a fast link (1 Gbit/s: GZip −79%, −62%, −56% at 10, 100, 1000 orders)",
            ratio => ratio < 1, "costs throughput", "gains");
        yield return Claim(report, "100mbit", "Compression wins on a slow link, up to 4× (100 Mbit/s: GZip −17%, +180%, +337%)",
            ratio => ratio > 1, "wins", "loses");
        yield return Claim(report, "1.5mbit", "(not in 2011) On a 1.5 Mbit/s link compression wins at every size",
            ratio => ratio > 1, "wins", "loses");
        yield return DeflateVersusGZip(report);
    }

    private static string Claim(BenchReport report, string link, string claim, Func<double, bool> holds, string yes, string no)
    {
        var sizes = report.Cells.Where(c => c.Link == link && c.Class == MessageClassCatalog.Orders && c.Contender == ContenderCatalog.UncompressedName)
            .Select(c => c.Size).Order().ToList();
        if (sizes.Count == 0)
        {
            return $"{claim}: not measured ({link} was not in this run).";
        }

        string? classic = OldCodec(report, link);
        var parts = new List<string>();
        if (classic is not null)
        {
            parts.Add(Verdict(report, link, sizes, $"the 2011 codec ({classic})", _ => classic, holds, yes, no));
        }

        parts.Add(Verdict(report, link, sizes, "the best modern codec", size => BestModern(report, link, size), holds, yes, no));
        return $"{claim}. Here at {link}: " + string.Join("; ", parts) + ".";
    }

    private static string Verdict(BenchReport report, string link, IReadOnlyList<int> sizes, string who, Func<int, string?> contender, Func<double, bool> holds, string yes, string no)
    {
        var measured = new List<(int Size, string Figure, bool Holds)>();
        foreach (int size in sizes)
        {
            if (contender(size) is { } name && Ratio(report, link, name, size) is { } ratio)
            {
                measured.Add((size, $"{size}: {name} {Reports.Format.Ratio(ratio)}×", holds(ratio)));
            }
        }

        if (measured.Count == 0)
        {
            return $"{who}: not measured";
        }

        string verdict = measured.All(m => m.Holds) ? $"holds ({yes} at every size)"
            : measured.Any(m => m.Holds) ? $"holds at {string.Join(", ", measured.Where(m => m.Holds).Select(m => m.Size))} orders only ({no} at the others)"
            : $"does not hold ({no} at every size)";
        return $"{who} {string.Join(", ", measured.Select(m => m.Figure))}: {verdict}";
    }

    private static string DeflateVersusGZip(BenchReport report)
    {
        const string claim = "Deflate is ahead of GZip by the cost of the CRC (2011: +2% to +7% ops/s)";
        var pairs = new[] { ("format-deflate", "format-gzip"), ("deflate-6", "gzip-6") };
        var found = new List<string>();
        foreach (var (deflate, gzip) in pairs)
        {
            var ratios = report.Cells.Where(c => c.Link == BenchLink.LoopbackName && c.Class == MessageClassCatalog.Orders && c.Contender == deflate)
                .Select(c => (c.Size, Ratio: report.Find(c.Link, gzip, c.Class, c.Size) is { } g ? c.OpsPerSecond / g.OpsPerSecond : (double?)null))
                .Where(r => r.Ratio is not null).ToList();
            if (ratios.Count > 0)
            {
                found.Add($"{deflate} / {gzip} on loopback: " + string.Join(", ", ratios.Select(r => $"{r.Size}: {Reports.Format.Percent(r.Ratio!.Value - 1)}")));
            }
        }

        return found.Count == 0
            ? $"{claim}: not measured (needs a Deflate and a GZip contender)."
            : $"{claim}. Here: {string.Join("; ", found)} (zlib-ng computes the CRC with SIMD; differences within a few % are this machine's noise).";
    }

    /// <summary>WCF's CompressionFormat.GZip where it ran, else our GZip at level 6 (the same zlib level).</summary>
    private static string? OldCodec(BenchReport report, string link) =>
        new[] { "format-gzip", "gzip-6", "format-deflate", "deflate-6" }.FirstOrDefault(name => report.Cells.Any(c => c.Link == link && c.Contender == name));

    private static string? BestModern(BenchReport report, string link, int size) => report.Cells
        .Where(c => c.Link == link && c.Class == MessageClassCatalog.Orders && c.Size == size && IsModern(c.Contender))
        .MaxBy(c => c.OpsPerSecond)?.Contender;

    private static bool IsModern(string contender) =>
        ContenderCatalog.Get(contender).ModelCodec?.Codec is CompressionCodec.Brotli or CompressionCodec.Zstd or CompressionCodec.Lz4;

    private static double? Ratio(BenchReport report, string link, string contender, int size) =>
        report.Find(link, contender, MessageClassCatalog.Orders, size) is { } c && report.Find(link, ContenderCatalog.UncompressedName, MessageClassCatalog.Orders, size) is { } u
            ? c.OpsPerSecond / u.OpsPerSecond
            : null;
}
