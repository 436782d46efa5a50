using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Latency.Client;

namespace Surrogate.Perf.Tests;

/// <summary>The policies against the oracle (best static contender of a cell) and uncompressed, and the reason a miss gives.</summary>
public sealed class CompressionPolicyVerdictTests
{
    private static readonly Percentiles NoLatency = new(1, 1, 1, 1, 1, 1, 1);

    private static BenchCell Cell(string contender, double ops, params DecisionCount[] decisions) =>
        new("100mbit", contender, "orders", 1000, 4, 100, 5, ops, 1000, 100, 1, 1, 0, 0, 0.5, 0.5, NoLatency, decisions.Length == 0 ? null : decisions);

    [Fact]
    public void Oracle_is_the_best_static_contender_and_a_policy_meets_the_goal_within_5_percent_of_it()
    {
        var verdicts = PolicyVerdicts.Evaluate([
            Cell("uncompressed", 100), Cell("zstd-1", 400), Cell("lz4-0", 300),
            Cell("adaptive", 385, new DecisionCount("zstd-1", "Model", 97, 0.3), new DecisionCount("lz4-0", "Exploration", 3, 0.45))]);
        PolicyVerdict v = Assert.Single(verdicts);
        Assert.Equal(("zstd-1", 400.0, 100.0), (v.Oracle, v.OracleOpsPerSecond, v.UncompressedOpsPerSecond!.Value));
        Assert.Equal(385 / 400.0, v.VersusOracle, 9);
        Assert.Equal(3.85, v.VersusUncompressed!.Value, 9);
        Assert.True(v.Met);
        Assert.Null(v.Why);
    }

    [Fact]
    public void A_miss_says_what_the_policy_sent_against_the_oracle()
    {
        var verdicts = PolicyVerdicts.Evaluate([
            Cell("uncompressed", 100), Cell("zstd-1", 400), Cell("lz4-0", 300),
            Cell("adaptive", 300, new DecisionCount("lz4-0", "Model", 90, 0.45), new DecisionCount("zstd-1", "Exploration", 10, 0.3)),
            Cell("rules-2011", 370, new DecisionCount("zstd-1", "SizeRule", 80, 0.3), new DecisionCount("raw", "CpuDisabled", 20, 1))]);
        Assert.Equal(2, verdicts.Count);
        PolicyVerdict adaptive = verdicts.Single(v => v.Contender == "adaptive");
        Assert.False(adaptive.Met);
        Assert.Equal("sent lz4-0 for 90% of replies (logged reason: model) (that static contender: 0.75 × the oracle); the oracle was zstd-1: the policy's model or its estimates picked a different choice", adaptive.Why);
        PolicyVerdict rules = verdicts.Single(v => v.Contender == "rules-2011");
        Assert.False(rules.Met);
        Assert.StartsWith("sent zstd-1 for 80% of replies (logged reason: sizerule), the oracle's choice too: the gap is the other 20% of replies", rules.Why, StringComparison.Ordinal);
    }

    [Fact]
    public void Falling_below_uncompressed_is_a_miss_even_near_the_oracle()
    {
        // The oracle is uncompressed itself here: 0.96 of it meets 0.95 × oracle but not 0.97 × uncompressed.
        PolicyVerdict v = Assert.Single(PolicyVerdicts.Evaluate([Cell("uncompressed", 100), Cell("zstd-1", 60), Cell("adaptive", 96, new DecisionCount("raw", "Model", 1, 1))]));
        Assert.False(v.Met);
        Assert.Contains("the oracle's choice too", v.Why, StringComparison.Ordinal);
    }
}
