using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Latency.Client;

namespace Surrogate.Perf.Tests;

/// <summary>
/// The model's arithmetic: the caps, the two break-even speeds (each consistent with the ops/s and call times it is
/// derived from), the fit from cells and sweep, the cross-check against shaped runs, and the 2011 conclusions' checks.
/// </summary>
public sealed class CompressionModelTests
{
    // 5 ms server and 4 ms client per uncompressed reply of 200 KB; compressing costs 2 ms and 0.5 ms and leaves 60 KB.
    private static readonly ModelInputs Inputs = new(0.005, 0.004, 200_000, 150, 0.002, 0.0005, 60_000);

    [Fact]
    public void Ops_are_capped_by_each_core_and_the_link()
    {
        Assert.Equal(1 / 0.007, Inputs.CompressedOps(1e12), 6);
        Assert.Equal(1 / 0.005, Inputs.UncompressedOps(1e12), 6);
        Assert.Equal(1e8 / 8 * ModelInputs.PayloadShare / 200_000, Inputs.UncompressedOps(1e8), 6);
        Assert.Equal(1e6 / 8 * ModelInputs.PayloadShare / 60_000, Inputs.CompressedOps(1e6), 6);
        Assert.Equal(1 / 0.006, new ModelInputs(0.001, 0.006, 1, 1, 0, 0, 1).UncompressedOps(1e12), 6); // the clients' core caps it
    }

    [Fact]
    public void Throughput_break_even_is_where_compressing_stops_winning()
    {
        double breakEven = Inputs.ThroughputBreakEvenBits();
        Assert.Equal(200_000 / 0.007 * 8 / ModelInputs.PayloadShare, breakEven, 3);
        Assert.True(Inputs.CompressedOps(breakEven * 0.99) > Inputs.UncompressedOps(breakEven * 0.99));
        Assert.True(Inputs.CompressedOps(breakEven * 1.01) < Inputs.UncompressedOps(breakEven * 1.01));
    }

    [Fact]
    public void Latency_break_even_is_where_one_call_takes_as_long_either_way()
    {
        double bytesPerSecond = Inputs.LatencyBreakEvenBits() / 8 * ModelInputs.PayloadShare;
        double uncompressed = 200_000 / bytesPerSecond;
        double compressed = 0.002 + 0.0005 + (60_000 / bytesPerSecond);
        Assert.Equal(uncompressed, compressed, 9);
    }

    [Fact]
    public void Break_even_is_never_without_a_saving_and_unbounded_without_a_cost()
    {
        Assert.Equal(0, (Inputs with { CompressedResponseBytes = 200_000 }).ThroughputBreakEvenBits());
        Assert.Equal(0, (Inputs with { CompressedResponseBytes = 250_000 }).LatencyBreakEvenBits());
        Assert.Equal(double.PositiveInfinity, (Inputs with { CompressSeconds = 0, DecompressSeconds = 0 }).ThroughputBreakEvenBits());
        Assert.Equal("∞", BenchMarkdown.Bits(double.PositiveInfinity));
        Assert.Equal("never", BenchMarkdown.Bits(0));
        Assert.Equal("1.25 Gbit/s", BenchMarkdown.Bits(1.25e9));
        Assert.Equal("468.3 Mbit/s", BenchMarkdown.Bits(468.3e6));
    }

    [Fact]
    public void One_call_in_flight_adds_the_codec_time_to_the_call()
    {
        Assert.Equal(1 / (0.01 + 0.002 + 0.0005), ModelInputs.OneCallOps(100, 0.002, 0.0005), 9);
    }

    [Fact]
    public void Fit_uses_the_loopback_costs_and_the_sweep_and_checks_each_shaped_link()
    {
        var cells = new List<BenchCell>
        {
            Cell("loopback", "uncompressed", 100, 200_000, 5, 4),
            Cell("loopback", "zstd-1", 90, 60_050, 7, 4.5),
            Cell("100mbit", "uncompressed", 59, 200_000, 5, 4),
            Cell("100mbit", "zstd-1", 140, 60_050, 7, 4.5),
            Cell("1gbit", "uncompressed", 199, 200_000, 5, 4),
            Cell("1gbit", "zstd-1", 150, 60_050, 7, 4.5),
        };
        var sweep = new List<SweepPoint> { new("orders", 1000, "Zstd", 1, 199_990, 60_040, 0.3, 2, 0.5, 10) };
        var links = new List<BenchLinkReport>
        {
            new("loopback", null, null, 1, "loopback", null),
            new("1gbit", 1_000_000_000, 62_500, 4, "tbf", "stats"),
            new("100mbit", 100_000_000, 6_250, 4, "tbf", "stats"),
        };
        var (model, missing) = BenchModel.Fit(cells, sweep, [ContenderCatalog.Uncompressed, ContenderCatalog.Get("zstd-1"), ContenderCatalog.Get("lz4-0")], links);
        Assert.Null(missing);
        ModelRow row = Assert.Single(model!.Rows); // lz4-0 was not swept
        Assert.Equal(200_000 - 199_990 + 60_040, row.Inputs.CompressedResponseBytes);
        Assert.Equal(0.005, row.Inputs.ServerSeconds, 9);
        Assert.Equal(["1gbit", "100mbit"], row.Links.Select(l => l.Link));
        Assert.All(row.Links, l => Assert.Equal(l.PredictedWin, l.MeasuredWin));
        Assert.Equal("2/2", BenchMarkdown.Agreement(row));
        Assert.Equal(90, row.LoopbackMeasuredOps);

        var (none, why) = BenchModel.Fit([.. cells.Where(c => c.Link != "loopback")], sweep, [ContenderCatalog.Get("zstd-1")], links);
        Assert.Null(none);
        Assert.Contains("loopback", why, StringComparison.Ordinal);
    }

    [Fact]
    public void Conclusions_say_where_the_2011_findings_hold()
    {
        var cells = new List<BenchCell>();
        foreach (var (size, plain, gzip, zstd) in new[] { (10, 3000.0, 2000.0, 2500.0), (100, 900.0, 700.0, 950.0), (1000, 100.0, 80.0, 130.0) })
        {
            cells.Add(Cell("1gbit", "uncompressed", plain, 1, 1, 1, size));
            cells.Add(Cell("1gbit", "format-gzip", gzip, 1, 1, 1, size));
            cells.Add(Cell("1gbit", "zstd-1", zstd, 1, 1, 1, size));
            cells.Add(Cell("loopback", "format-gzip", 100, 1, 1, 1, size));
            cells.Add(Cell("loopback", "format-deflate", 103, 1, 1, 1, size));
        }

        var report = new BenchReport(new BenchEnvironment(DateTimeOffset.UnixEpoch, "t", "", "", "", "", 2, "", "", "", "", ""), [], cells, [], [], null, "none");
        var lines = Conclusions.Check(report).ToList();
        Assert.Contains("the 2011 codec (format-gzip) 10: format-gzip 0.67×, 100: format-gzip 0.78×, 1000: format-gzip 0.80×: holds (costs throughput at every size)", lines[0], StringComparison.Ordinal);
        Assert.Contains("the best modern codec 10: zstd-1 0.83×, 100: zstd-1 1.06×, 1000: zstd-1 1.30×: holds at 10 orders only (gains at the others)", lines[0], StringComparison.Ordinal);
        Assert.Contains("not measured (100mbit was not in this run)", lines[1], StringComparison.Ordinal);
        Assert.Contains("format-deflate / format-gzip on loopback: 10: 3.0%", lines[3], StringComparison.Ordinal);
    }

    private static BenchCell Cell(string link, string contender, double ops, double responseBytes, double serverMs, double clientMs, int size = 1000) =>
        new(link, contender, "orders", size, 1, 100, 1, ops, responseBytes, 150, clientMs, serverMs, 0, 0, 0.5, 0.5, new Percentiles(100, 1, 1, 1, 1, 1, 1));
}
