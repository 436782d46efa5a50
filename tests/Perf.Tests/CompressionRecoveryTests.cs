using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Latency.Client;

namespace Surrogate.Perf.Tests;

/// <summary>The recovery after a mid-run rate change, from made-up timelines (no timing), and the report's grid sections.</summary>
public sealed class CompressionRecoveryTests
{
    private static readonly Percentiles NoLatency = new(1, 1, 1, 1, 1, 1, 1);
    private static readonly RateChange Change = RateChange.Parse("100mbit->1.5mbit@4s", null);

    /// <summary>28 buckets of 0.5 s (4 s before the change, 10 after): <paramref name="before"/> ops/s, then <paramref name="after"/> from bucket <paramref name="from"/> on.</summary>
    private static double[] Timeline(double before, double slow, double after, int from)
    {
        var ops = new double[28];
        for (int i = 0; i < ops.Length; i++)
        {
            ops[i] = i < 8 ? before : i < from ? slow : after;
        }

        return ops;
    }

    private static RateChangeCell Cell(string contender, double[] ops, string messageClass = "medium", int size = 153600) =>
        new(new BenchCell(Change.Name, contender, messageClass, size, 4, 100, Change.WindowSeconds, ops.Average(), 1000, 100, 1, 1, 0, 0, 0.5, 0.5, NoLatency), ops);

    [Fact]
    public void Clients_timelines_add_up_per_bucket_and_stop_at_the_window()
    {
        double[] ops = Recovery.Combine([[2, 4, 6], [1, 1, 1, 1, 9]], 2);
        Assert.Equal([6.0, 10.0, 14.0, 2.0], ops);
        Assert.Equal(8, Recovery.Mean(ops, 0, 1));
        Assert.Equal(26 / 3.0, Recovery.Mean(ops, 0.5, 2), 9);
    }

    [Fact]
    public void A_policy_recovers_when_its_rolling_mean_and_the_rest_of_the_window_reach_95_percent_of_the_best_static()
    {
        double[] policy = Timeline(100, 10, 50, from: 14);
        Assert.Equal(3.0, Recovery.SecondsToRecover(policy, 4, 50));
        Assert.Equal(3.0, Recovery.SecondsToRecover(policy, 4, 52)); // 50 >= 0.95 × 52
        Assert.Null(Recovery.SecondsToRecover(policy, 4, 53));
        Assert.Equal(0.0, Recovery.SecondsToRecover(Timeline(100, 50, 50, from: 8), 4, 50));
    }

    [Fact]
    public void Pre_change_throughput_and_a_lone_spike_do_not_count_as_recovered()
    {
        // Faster before the change than the target after it: the rolling window starts at the change, not before.
        double[] policy = Timeline(500, 40, 40, from: 8);
        Assert.Null(Recovery.SecondsToRecover(policy, 4, 50));
        Assert.Equal(0.0, Recovery.SecondsToRecover(policy, 4, 42));
        double[] spike = Timeline(100, 10, 10, from: 8);
        for (int i = 12; i < 16; i++)
        {
            spike[i] = 60;
        }

        Assert.Null(Recovery.SecondsToRecover(spike, 4, 50));
    }

    [Fact]
    public void Recoveries_judge_each_policy_against_the_best_static_contender_at_the_new_rate()
    {
        RateChangeCell[] cells =
        [
            Cell("uncompressed", Timeline(100, 8, 8, from: 8)),
            Cell("zstd-1", Timeline(90, 40, 40, from: 8)),
            Cell("adaptive", Timeline(100, 8, 40, from: 16)),
            Cell("rules-2011", Timeline(95, 20, 20, from: 8)),
        ];
        var recoveries = Recovery.Evaluate(cells, Change);
        RateRecovery adaptive = recoveries.Single(r => r.Contender == "adaptive");
        Assert.Equal(("zstd-1", 40.0, 4.0, true), (adaptive.Best, adaptive.BestAfterOps, adaptive.Seconds!.Value, adaptive.Met));
        Assert.Equal(100, adaptive.BeforeOps);
        RateRecovery rules = recoveries.Single(r => r.Contender == "rules-2011");
        Assert.Null(rules.Seconds);
        Assert.False(rules.Met);
        Assert.Equal(6.0, Recovery.SecondsToRecover(Timeline(100, 8, 40, from: 20), 4, 40));
        Assert.False(Recovery.Evaluate([Cell("zstd-1", Timeline(90, 40, 40, 8)), Cell("adaptive", Timeline(100, 8, 40, from: 20))], Change).Single().Met);
    }

    [Fact]
    public void Results_md_has_the_left_out_list_class_ratios_verdicts_per_cell_and_the_recovery()
    {
        static BenchCell C(string link, string contender, string cls, int size, double ops) =>
            new(link, contender, cls, size, 1, 10, 1, ops, 1000, 100, 1, 1, 0, 0, 0.5, 0.5, NoLatency,
                ContenderCatalog.Get(contender).IsPolicy ? [new DecisionCount("raw", "Model", 10, 1)] : null);
        BenchCell[] cells =
        [
            C("loopback", "uncompressed", "simple", 0, 100), C("loopback", "zstd-1", "simple", 0, 200),
            C("loopback", "adaptive", "simple", 0, 150), C("loopback", "rules-2011", "simple", 0, 190),
        ];
        SweepPoint[] sweep = [new("simple", 0, "Deflate", 6, 150_000, 15_000, 0.1, 1, 1, 3), new("simple", 0, "Zstd", 1, 150_000, 18_000, 0.12, 1, 1, 3)];
        var report = new BenchReport(new BenchEnvironment(DateTimeOffset.UnixEpoch, "grid", "", "", "", "", 2, "", "", "", "", ""),
            [new BenchLinkReport("loopback", null, null, 1, "loopback", null)], cells, [], sweep, null, "none")
        {
            Omissions = ["orders at 100"],
            RateChange = Change,
            RateChangeCells = [Cell("zstd-1", Timeline(90, 40, 40, 8)), Cell("adaptive", Timeline(100, 8, 40, 16))],
        };
        string md = BenchMarkdown.Write(report);
        Assert.Contains("## Part 3: one machine (loopback), one client, one call in flight each", md, StringComparison.Ordinal);
        Assert.Contains("## Part 3: one machine (loopback), 4 clients, one call in flight each",
            BenchMarkdown.Write(report with { Links = [new BenchLinkReport("loopback-4c", null, null, 4, "loopback", null, DefaultLoad: false)] }), StringComparison.Ordinal);
        Assert.Contains("## What this profile leaves out of the grid\n\n- orders at 100", md.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Contains("| simple | mix | 150,000 | 0.1 (0.05–0.15) | 0.100 | yes | 0.100 (deflate-6) – 0.120 (zstd-1) |", md, StringComparison.Ordinal);
        Assert.Contains("| loopback | 1 | simple | mix | zstd-1 | 0.75 | 0.75 | 1.50 | missed | 0.95 |", md, StringComparison.Ordinal);
        Assert.Contains("- loopback adaptive simple mix: 0.75 × zstd-1, 1.50 × uncompressed; sent raw for 100% of replies (logged reason: model)", md, StringComparison.Ordinal);
        Assert.Contains("## Link rate changed mid-run: 100mbit->1.5mbit", md, StringComparison.Ordinal);
        Assert.Contains("| adaptive | medium | 150 KB | 100 | 29.3 | zstd-1 40.0 | 4.0 s | met |", md, StringComparison.Ordinal);
    }
}
