using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Tests;

/// <summary>Stolen time from /proc/stat, and the rounds measured again when a hypervisor stole too much of their window.</summary>
public sealed class StolenTimeTests
{
    private static readonly Percentiles NoLatency = new(1, 1, 1, 1, 1, 1, 1);

    // Two readings of this machine 10 s apart during a grid: 695 of 2,073 ticks stolen.
    private const string Before = "cpu  239796 0 42327 193175 1205 0 14998 9453 0 0\ncpu0 119000 0 21000 96000 600 0 7500 4700 0 0\nintr 1 2 3\n";
    private const string After = "cpu  240123 0 42865 193531 1205 0 15155 10148 0 0\ncpu0 119100 0 21200 96100 600 0 7600 5000 0 0\n";

    [Fact]
    public void The_share_stolen_is_the_steal_ticks_over_all_ticks_of_the_aggregate_line()
    {
        CpuTicks? before = StolenTime.Parse(Before);
        Assert.Equal(new CpuTicks(9453, 239796 + 42327 + 193175 + 1205 + 14998 + 9453), before);
        Assert.Equal(695 / 2073.0, StolenTime.Share(before, StolenTime.Parse(After))!.Value, 9);
    }

    [Theory]
    [InlineData("cpu0 1 2 3 4 5 6 7 8\n")]               // no aggregate line
    [InlineData("cpu  1 2 3 4 5 6 7\n")]                // a kernel without the steal field
    [InlineData("cpu  1 2 3 x 5 6 7 8 9 10\n")]         // not a number
    [InlineData("")]
    public void A_stat_without_a_readable_steal_field_gives_no_share(string stat)
    {
        Assert.Null(StolenTime.Parse(stat));
        Assert.Null(StolenTime.Share(StolenTime.Parse(stat), StolenTime.Parse(After)));
    }

    [Fact]
    public void No_tick_between_two_readings_gives_no_share() =>
        Assert.Null(StolenTime.Share(StolenTime.Parse(After), StolenTime.Parse(After)));

    [Fact]
    public void This_machine_reads_its_own_stat_on_linux()
    {
        CpuTicks? now = StolenTime.Read();
        Assert.Equal(OperatingSystem.IsLinux(), now is not null);
        if (now is { } ticks)
        {
            Assert.InRange(ticks.Stolen, 0, ticks.All);
        }
    }

    [Fact]
    public void A_round_with_too_much_stolen_is_measured_again_and_the_least_stolen_attempt_counts()
    {
        BenchCell clean = Cell(1000, 0.01);
        Assert.False(CellAttempts.Another([clean]));
        Assert.False(CellAttempts.Another([Cell(1000, null)])); // unknown: measured once, as off Linux
        Assert.True(CellAttempts.Another([Cell(600, 0.30)]));
        Assert.False(CellAttempts.Another([Cell(600, 0.30), clean]));
        Assert.False(CellAttempts.Another([Cell(600, 0.30), Cell(700, 0.20), Cell(800, 0.10)])); // three at most

        BenchCell kept = CellAttempts.Keep([Cell(600, 0.30), Cell(800, 0.08), Cell(700, 0.20)]);
        Assert.Equal((800, 0.08, 3), (kept.OpsPerSecond, kept.StolenShare!.Value, kept.Attempts));
        Assert.Equal(1, CellAttempts.Keep([clean]).Attempts);
    }

    private static BenchCell Cell(double ops, double? stolen) =>
        new BenchCell("1gbit", "lz4-0", "simple", 16_384, 4, 100, 2, ops, 1000, 100, 1, 1, 0, 0, 0.5, 0.5, NoLatency) { StolenShare = stolen };
}
