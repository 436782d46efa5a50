using System.Security.Cryptography;
using Surrogate.Compression;
using Surrogate.Perf.Harness.Cli;
using Surrogate.Perf.Harness.Compression;

namespace Surrogate.Perf.Tests;

/// <summary>The grid's message classes, its profile and options, without running anything.</summary>
public sealed class CompressionGridTests
{
    [Theory]
    [InlineData("simple")]
    [InlineData("medium")]
    [InlineData("complex")]
    public void Grid_classes_compress_as_they_claim_from_16_KB_up_and_in_the_mix(string name)
    {
        GridKind kind = GridMessages.Kind(name);
        foreach (int size in new[] { 16 * 1024, 150 * 1024, 1024 * 1024 }.Concat(GridMessages.MixSequence.Take(4)))
        {
            byte[] message = GridMessages.Payload(name, size);
            Assert.Equal(size, message.Length);
            SweepPoint point = Assert.Single(CodecSweep.Run(name, size, message, [(CompressionCodec.Deflate, 6)], 0));
            Assert.True(point.Ratio >= kind.Band.Low && point.Ratio <= kind.Band.High, $"{name} {size}: deflate-6 ratio {point.Ratio:0.000}, band {kind.Band}");
        }
    }

    [Fact]
    public void Grid_content_is_fixed_by_the_seed_and_a_shorter_message_is_a_prefix_of_a_longer_one()
    {
        byte[] first = GridMessages.Generate(GridMessages.Kind("medium"), 16 * 1024);
        Assert.Equal(first, GridMessages.Generate(GridMessages.Kind("medium"), 16 * 1024));
        Assert.Equal(first.AsSpan(0, 1024).ToArray(), GridMessages.Generate(GridMessages.Kind("medium"), 1024));
        Assert.NotEqual(first, GridMessages.Generate(GridMessages.Kind("complex"), 16 * 1024));
        Assert.Equal("<item id=\"1\" name=", System.Text.Encoding.ASCII.GetString(GridMessages.Generate(GridMessages.Kind("simple"), 18)));
        Assert.Equal("02c03ab6", Convert.ToHexStringLower(SHA256.HashData(GridMessages.Generate(GridMessages.Kind("complex"), 4096)))[..8]);
    }

    [Fact]
    public void Mix_is_0_6_to_250_KB_with_most_near_150_KB_and_its_client_cycles_through_it()
    {
        var mix = GridMessages.MixSequence;
        Assert.Equal(32, mix.Count);
        Assert.All(mix, size => Assert.InRange(size, 614, 250 * 1024));
        Assert.True(mix.Count(s => s is >= 120 * 1024 and <= 180 * 1024) >= 24, string.Join(", ", mix));
        Assert.Contains(mix, s => s < 50 * 1024);

        var asked = new List<int>();
        using var client = new MixClient(new RecordingClient(asked));
        for (int i = 0; i < mix.Count + 2; i++)
        {
            client.Call(GridMessages.Mix);
        }

        client.Call(2048);
        Assert.Equal([.. mix, mix[0], mix[1], 2048], asked);
    }

    [Fact]
    public void Sizes_are_bytes_or_mix_for_grid_classes_and_orders_for_the_others()
    {
        BenchOptions options = CompressionCli.Parse(["--classes", "simple", "--sizes", "1000,mix"]);
        Assert.Equal([1000, GridMessages.Mix], options.Classes[0].Sizes);
        Assert.Equal("mix", options.Classes[0].Class.SizeLabel(GridMessages.Mix));
        Assert.Equal("150 KB", GridMessages.Label(150 * 1024));
        Assert.Equal("1 MB", GridMessages.Label(1024 * 1024));
        var error = Assert.Throws<ArgumentException>(() => CompressionCli.Parse(["--classes", "simple,orders", "--sizes", "mix"]));
        Assert.Contains("number of orders", error.Message, StringComparison.Ordinal);
        Assert.Contains("number of bytes", Assert.Throws<ArgumentException>(() => CompressionCli.Parse(["--classes", "complex", "--sizes", "0"])).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Grid_profile_runs_every_link_at_two_loads_with_the_rate_change_and_says_what_it_leaves_out()
    {
        BenchOptions grid = CompressionCli.Parse(["--profile", "grid"]);
        Assert.Equal(("grid", 2.0, 2.0, 3), (grid.Profile.Name, grid.Profile.WarmupSeconds, grid.Profile.MeasureSeconds, grid.Profile.Rounds));
        Assert.Equal(["loopback", "loopback-4c", "1gbit-1c", "1gbit", "100mbit-1c", "100mbit", "1.5mbit-1c", "1.5mbit"], grid.LinkRuns.Select(l => l.Name));
        Assert.Equal(GridProfile.ContenderNames, grid.Contenders.Select(c => c.Name));
        Assert.Equal(["simple", "medium", "complex", "orders", "dataset-plain", "dataset-surrogate"], grid.Classes.Select(c => c.Class.Name));
        Assert.Equal(("100mbit->1.5mbit", 10.0, 20.0), (grid.RateChange!.Name, grid.RateChange.AtSeconds, grid.RateChange.WindowSeconds));
        Assert.Contains(grid.LeftOut, o => o.Covers("1.5mbit-1c", "complex", 1024 * 1024));
        Assert.DoesNotContain(grid.LeftOut, o => o.Covers("100mbit", "complex", 1024 * 1024) || o.Covers("1.5mbit", "complex", 150 * 1024));
        Assert.NotEmpty(grid.Omissions);
        Assert.InRange(grid.EstimatedSeconds() / 3600, 4.5, 7.5);
        Assert.InRange(CompressionCli.Parse(["--profile", "grid", "--rounds", "1"]).EstimatedSeconds() / 3600, 1.5, 3);
        Assert.Equal(1, CompressionCli.Parse([]).Profile.Rounds);

        BenchOptions six = CompressionCli.Parse(["--profile", "grid", "--clients", "6", "--links", "100mbit"]);
        Assert.Equal(["100mbit-1c", "100mbit"], six.LinkRuns.Select(l => l.Name));
        Assert.Equal([1, 6], six.LinkRuns.Select(l => l.Clients!.Value));
        Assert.Equal(["loopback", "loopback-3c"], CompressionCli.Parse(["--quick", "--loads", "1,3"]).LinkRuns.Select(l => l.Name));
        Assert.Null(CompressionCli.Parse([]).Loads);
    }

    [Fact]
    public void Fresh_processes_warm_up_for_the_profile_s_seconds_in_whole_passes_over_the_contenders()
    {
        // Grid: 9 contenders x (2 + 2 + 1.5 s) = 49.5 s fill the 45 s in one pass; 3 contenders take three (16.5 s a pass).
        Assert.Equal((1, 3, 0), (BenchProfile.Grid.WarmUpPasses(9), BenchProfile.Grid.WarmUpPasses(3), BenchProfile.Grid.WarmUpPasses(0)));
        Assert.Equal(2, BenchProfile.Grid.WarmUpPasses(5)); // 27.5 s, then 55 s
        Assert.Equal(1, BenchProfile.Quick.WarmUpPasses(5)); // the short version: one pass
        Assert.Equal(1, BenchProfile.Full.WarmUpPasses(14)); // 14 x 31.5 s
        Assert.Equal(2, (BenchProfile.Grid with { WarmupSeconds = 1, MeasureSeconds = 1 }).WarmUpPasses(9)); // 31.5 s, then 63 s

        // The estimate counts them: three contenders warm up in three passes where no warm-up time asks one.
        BenchOptions three = CompressionCli.Parse(["--profile", "grid", "--links", "loopback", "--loads", "1", "--contenders", "lz4-0,adaptive"]);
        BenchOptions onePass = three with { Profile = three.Profile with { LinkWarmupSeconds = 0 } };
        Assert.Equal(3, three.Contenders.Count);
        Assert.Equal(2 * 3 * 5.5, three.EstimatedSeconds() - onePass.EstimatedSeconds(), 9);
    }

    [Fact]
    public void Warm_up_passes_settle_when_the_median_contender_stops_getting_faster()
    {
        var cold = new Dictionary<string, double> { ["uncompressed"] = 1670, ["lz4-0"] = 1135, ["zstd-1"] = 1018 };
        var warming = new Dictionary<string, double> { ["uncompressed"] = 7186, ["lz4-0"] = 6992, ["zstd-1"] = 4349 };
        var warm = new Dictionary<string, double> { ["uncompressed"] = 8987, ["lz4-0"] = 7712, ["zstd-1"] = 6292 };
        var steady = new Dictionary<string, double> { ["uncompressed"] = 8100, ["lz4-0"] = 8400, ["zstd-1"] = 6500 };
        Assert.False(BenchProfile.WarmUpSettled(cold, warming)); // x4.3, x6.2, x4.3
        Assert.False(BenchProfile.WarmUpSettled(warming, warm)); // x1.25, x1.10, x1.45: the median 1.25
        Assert.True(BenchProfile.WarmUpSettled(warm, steady)); // x0.90, x1.09, x1.03: the median 1.03

        // Only contenders measured in both passes count (one that failed in either is left out); none, not settled.
        var failedOne = new Dictionary<string, double> { ["uncompressed"] = 8100, ["zstd-1"] = 6500, ["brotli-4"] = 100 };
        Assert.True(BenchProfile.WarmUpSettled(warm, failedOne)); // x0.90, x1.03
        Assert.False(BenchProfile.WarmUpSettled(new Dictionary<string, double>(), steady));
        Assert.Equal(4, BenchProfile.MostWarmUpPasses);

        // Settling takes two passes to show: the grid's one pass of nine becomes two; no link warm-up time, one.
        Assert.Equal((2, 3, 0), (BenchProfile.Grid.FewestWarmUpPasses(9), BenchProfile.Grid.FewestWarmUpPasses(3), BenchProfile.Grid.FewestWarmUpPasses(0)));
        Assert.Equal(1, BenchProfile.Quick.FewestWarmUpPasses(5));
    }

    [Theory]
    [InlineData("100mbit->1.5mbit@10s", 100_000_000, 1_500_000, 10)]
    [InlineData("1.5mbit->1gbit@2.5", 1_500_000, 1_000_000_000, 2.5)]
    public void Rate_change_parses_both_rates_and_the_time(string text, long from, long to, double at)
    {
        // The bucket both rates share is LinkRateChangeTests' concern.
        RateChange change = CompressionCli.Parse(["--rate-change", text]).RateChange!;
        Assert.Equal((from, to, at), (change.From.BitsPerSecond, change.To.BitsPerSecond, change.AtSeconds));
        Assert.Equal(at + RateChange.AfterSeconds, change.WindowSeconds);
    }

    [Theory]
    [InlineData("--rate-change", "100mbit-1.5mbit@10s", "from->to@seconds")]
    [InlineData("--rate-change", "100mbit->100mbit@10s", "the same")]
    [InlineData("--rate-change", "loopback->1.5mbit@10s", "loopback")]
    [InlineData("--rate-change", "100mbit->1.5mbit@0.5s", "1 to 600 seconds")]
    [InlineData("--profile", "huge", "full, quick, grid")]
    [InlineData("--loads", "0", "from 1 to 16")]
    [InlineData("--rounds", "0", "from 1 to 9")]
    public void Bad_grid_options_are_refused_with_a_message(string option, string value, string message) =>
        Assert.Contains(message, Assert.Throws<ArgumentException>(() => CompressionCli.Parse([option, value])).Message, StringComparison.Ordinal);

    private sealed class RecordingClient(List<int> asked) : IBenchClient
    {
        public int Call(int size)
        {
            asked.Add(size);
            return size;
        }

        public void Dispose()
        {
        }
    }
}
