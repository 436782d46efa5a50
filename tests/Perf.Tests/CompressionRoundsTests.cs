using System.Text;
using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Latency.Client;

namespace Surrogate.Perf.Tests;

/// <summary>Interleaved rounds of a class and size: the order each round measures the contenders in, and the median round a cell reports.</summary>
public sealed class CompressionRoundsTests
{
    private static readonly Percentiles NoLatency = new(1, 1, 1, 1, 1, 1, 1);

    private static BenchCell Cell(string contender, double ops, double serverCpuMs = 1) =>
        new("1gbit", contender, "simple", 153_600, 4, 100, 2, ops, 1000, 100, 1, serverCpuMs, 0, 0, 0.5, 0.5, NoLatency);

    [Fact]
    public void Every_contender_runs_once_a_round_and_never_after_the_same_contender_twice_in_a_cell()
    {
        // A contender ran slower after a CPU-heavy one (brotli-4) than after a light one (lz4-0), past its warm-up: a
        // rotation kept the adaptive encoder behind brotli-4 in every round of every cell.
        string[] nine = ["uncompressed", "deflate-6", "lz4-0", "zstd-1", "zstd-3", "zstd-9", "brotli-4", "adaptive", "rules-2011"];
        foreach (string cell in new[] { "1gbit/simple/16384", "loopback/medium/0", "1.5mbit/complex/153600" })
        {
            var orders = CellRounds.Orders(nine, 3, CellRounds.Seed(cell));
            Assert.Equal(3, orders.Count);
            Assert.All(orders, o => Assert.Equal(nine.Order(), o.Order()));
            var pairs = orders.SelectMany((o, r) => o.Select((c, i) => (Before: i > 0 ? o[i - 1] : r > 0 ? orders[r - 1][^1] : null, After: c)))
                .Where(p => p.Before is not null).ToList();
            Assert.Equal(pairs.Count, pairs.Distinct().Count());
            Assert.Equal(orders, CellRounds.Orders(nine, 3, CellRounds.Seed(cell))); // the same cell, the same orders
        }

        Assert.NotEqual(CellRounds.Orders(nine, 3, CellRounds.Seed("a")), CellRounds.Orders(nine, 3, CellRounds.Seed("b")));
        Assert.Equal(706_961_220, CellRounds.Seed("1gbit/simple/16384")); // FNV-1a: stable across processes and runs
        Assert.Equal(["a"], Assert.Single(CellRounds.Orders(["a"], 1, 7)));
        Assert.All(CellRounds.Orders(Array.Empty<string>(), 2, 7), Assert.Empty);
        Assert.Equal(3, CellRounds.Orders(["a", "b"], 3, 7).Count); // two contenders must repeat a neighbour: still three full rounds
        Assert.All(CellRounds.Orders(["a", "b"], 3, 7), o => Assert.Equal(["a", "b"], o.Order()));
    }

    [Fact]
    public void A_cell_is_its_median_round_with_every_round_kept_in_run_order()
    {
        BenchCell median = CellRounds.Median([Cell("lz4-0", 900, 0.9), Cell("lz4-0", 1200, 1.2), Cell("lz4-0", 1000, 1.0)]);
        Assert.Equal((1000.0, 1.0), (median.OpsPerSecond, median.ServerCpuMs)); // the median round's figures travel together
        Assert.Equal([900.0, 1200.0, 1000.0], median.RoundOpsPerSecond);
        Assert.Equal(900, CellRounds.Median([Cell("lz4-0", 1200), Cell("lz4-0", 900)]).OpsPerSecond); // even: the lower one
        BenchCell single = Cell("lz4-0", 700);
        Assert.Same(single, CellRounds.Median([single]));
        Assert.Throws<ArgumentOutOfRangeException>(() => CellRounds.Median([]));
    }

    [Fact]
    public void One_slow_round_of_the_oracle_does_not_make_the_policy_miss()
    {
        // The single-window grid's bias: the best of seven noisy static draws. Here the oracle's third round ran fast
        // (1,300) and adaptive's first slow (800); the medians say 1,000 against 980, which meets 0.95.
        BenchCell oracle = CellRounds.Median([Cell("lz4-0", 1000), Cell("lz4-0", 950), Cell("lz4-0", 1300)]);
        BenchCell Adaptive(double ops) => Cell("adaptive", ops) with { Decisions = [new DecisionCount("lz4-0", "Model", 1, 0.23)] };
        BenchCell adaptive = CellRounds.Median([Adaptive(800), Adaptive(980), Adaptive(1010)]);
        BenchCell uncompressed = CellRounds.Median([Cell("uncompressed", 300), Cell("uncompressed", 300), Cell("uncompressed", 300)]);
        PolicyVerdict verdict = Assert.Single(PolicyVerdicts.Evaluate([uncompressed, oracle, adaptive]));
        Assert.Equal(0.98, verdict.VersusOracle, 9);
        Assert.True(verdict.Met);

        var md = new StringBuilder();
        var report = new BenchReport(
            new BenchEnvironment(DateTimeOffset.UnixEpoch, "grid", "", "", "", "", 2, "", "", "", "", ""),
            [new BenchLinkReport("1gbit", 1_000_000_000, 62_500, 4, "1gbit", null)], [uncompressed, oracle, adaptive], [], [], null, null);
        GridMarkdown.Verdicts(md, report);
        Assert.Contains("| 0.98 | 0.98 | 3.27 | met | - | 0.80 1.03 0.78 |", md.ToString(), StringComparison.Ordinal); // round by round, in run order
        Assert.Contains("Each cell is the median of its rounds", md.ToString(), StringComparison.Ordinal);
    }
}
