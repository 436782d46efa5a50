using Surrogate.Compression;
using Surrogate.Perf.Harness.Cli;
using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Tests;

/// <summary>The compression command's options, contenders and published figures, and how clients add up, without running anything.</summary>
public sealed class CompressionOptionsTests
{
    [Fact]
    public void Default_is_the_full_matrix_with_the_published_timing_and_small_bursts()
    {
        BenchOptions options = CompressionCli.Parse([]);
        Assert.Equal(("full", 10.0, 20.0), (options.Profile.Name, options.Profile.WarmupSeconds, options.Profile.MeasureSeconds));
        Assert.Equal(["loopback", "1gbit", "100mbit", "1.5mbit"], options.Links.Select(l => l.Name));
        Assert.Equal(new long?[] { null, 62_500, 6_250, 3_028 }, options.Links.Select(l => l.Rate?.BurstBytes));
        Assert.Equal(ContenderCatalog.Defaults, options.Contenders);
        Assert.Equal(["orders", "dataset-plain", "dataset-surrogate"], options.Classes.Select(c => c.Class.Name));
        Assert.Equal([10, 100, 1000], options.Classes[0].Sizes);
        Assert.Equal(4, options.Clients);
        Assert.True(options.Pin);
    }

    [Fact]
    public void Quick_is_loopback_with_a_few_cells_and_options_override_it()
    {
        BenchOptions quick = CompressionCli.Parse(["--quick"]);
        Assert.Equal("quick", quick.Profile.Name);
        Assert.Equal([BenchLink.Loopback], quick.Links);
        Assert.Equal(ContenderCatalog.QuickNames, quick.Contenders.Select(c => c.Name));

        BenchOptions custom = CompressionCli.Parse(["--quick", "--links", "loopback,20mbit", "--burst", "9000", "--contenders", "zstd-9,brotli-1", "--classes", "orders",
            "--sizes", "5,50", "--clients", "2", "--duration", "2", "--warmup", "0.5", "--server", "soaphost", "--no-pin"]);
        Assert.Equal(9000, custom.Links[1].Rate!.BurstBytes);
        Assert.Equal(20_000_000, custom.Links[1].Rate!.BitsPerSecond);
        Assert.Equal(["uncompressed", "zstd-9", "brotli-1"], custom.Contenders.Select(c => c.Name));
        Assert.Equal((CompressionCodec.Zstd, 9), custom.Contenders[1].ModelCodec);
        Assert.Equal([5, 50], Assert.Single(custom.Classes).Sizes);
        Assert.Equal((2, 2.0, 0.5, "soaphost", false), (custom.Clients, custom.Profile.MeasureSeconds, custom.Profile.WarmupSeconds, custom.Server, custom.Pin));
    }

    [Theory]
    [InlineData("--contenders", "deflate-1", "offers levels")]
    [InlineData("--contenders", "snappy-1", "Unknown contender")]
    [InlineData("--classes", "xml", "Unknown message class")]
    [InlineData("--sizes", "0", "from 1 to 1000")]
    [InlineData("--sizes", "1001", "from 1 to 1000")]
    [InlineData("--clients", "0", "from 1 to 16")]
    [InlineData("--burst", "100", "at least one full frame")]
    [InlineData("--links", "fast", "not a rate")]
    [InlineData("--server", "iis", "soaphost, corewcf")]
    public void Bad_options_are_refused_with_a_message(string option, string value, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => CompressionCli.Parse([option, value]));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1_000_000_000, 62_500)]
    [InlineData(100_000_000, 6_250)]
    [InlineData(1_500_000, 3_028)]
    [InlineData(10_000_000_000, 65_536)]
    public void Small_burst_is_half_a_millisecond_between_two_frames_and_64_KiB(long bits, long burst) =>
        Assert.Equal(burst, BenchLink.SmallBurst(bits));

    [Fact]
    public void Contenders_map_to_the_codec_the_model_uses_and_built_ins_cannot_work_on_the_stand_in_host()
    {
        Assert.Null(ContenderCatalog.Uncompressed.ModelCodec);
        Assert.Equal((CompressionCodec.GZip, 6), ContenderCatalog.Get("format-gzip").ModelCodec);
        Assert.Equal((CompressionCodec.Deflate, 6), ContenderCatalog.Get("format-deflate").ModelCodec);
        Assert.Equal((CompressionCodec.Lz4, 9), ContenderCatalog.Get("lz4-9").ModelCodec);
        Assert.Null(ContenderCatalog.Get("raw-framed").ModelCodec); // every message raw: nothing to model
        Assert.False(ContenderCatalog.Get("raw-framed").IsPolicy);
        Assert.NotNull(ContenderCatalog.Get("format-deflate").CannotWork("soaphost"));
        Assert.Null(ContenderCatalog.Get("format-deflate").CannotWork("corewcf"));
        Assert.Null(ContenderCatalog.Get("zstd-1").CannotWork("soaphost"));
        Assert.Equal(1024, ContenderCatalog.Get("zstd-1").Options!.MinMessageSize);
        foreach (string policy in new[] { ContenderCatalog.AdaptiveName, ContenderCatalog.Rules2011Name })
        {
            Contender contender = ContenderCatalog.Get(policy);
            Assert.True(contender.IsPolicy && contender.ModelCodec is null && contender.CannotWork("soaphost") is null, policy);
            Assert.NotNull(BenchDecisionLogs.ServerOptions(contender)!.DecisionLog);
        }

        Assert.False(ContenderCatalog.Get("zstd-1").IsPolicy);
        Assert.Null(BenchDecisionLogs.ServerOptions(ContenderCatalog.Get("zstd-1"))!.DecisionLog);
        Assert.Equal(CompressionPolicy.Adaptive, ContenderCatalog.Get(ContenderCatalog.AdaptiveName).Options!.Policy);
        Assert.Equal(CompressionPolicy.Rules2011, ContenderCatalog.Get(ContenderCatalog.Rules2011Name).Options!.Policy);
    }

    [Fact]
    public void Decisions_group_by_choice_and_reason_with_rejected_ones_counted_as_raw()
    {
        static CompressionDecision D(CompressionCodec? codec, int level, CompressionDecisionReason reason, long wire) =>
            new(DateTimeOffset.UnixEpoch, "a", 1000, wire, codec, level, reason, double.NaN, double.NaN, double.NaN, null);
        var summary = BenchDecisionLogs.Summarize([
            D(CompressionCodec.Zstd, 1, CompressionDecisionReason.Model, 200), D(CompressionCodec.Zstd, 1, CompressionDecisionReason.Model, 400),
            D(CompressionCodec.Zstd, 1, CompressionDecisionReason.Model, 300), D(CompressionCodec.Lz4, 0, CompressionDecisionReason.Rejected, 1005),
            D(null, 0, CompressionDecisionReason.Incompressible, 1005)]);
        Assert.Equal(
            [("zstd-1", "Model", 3L, 0.3), ("raw", "Incompressible", 1L, 1.005), ("raw", "Rejected", 1L, 1.005)],
            summary.Select(d => (d.Choice, d.Reason, d.Count, Math.Round(d.MeanRatio, 6))));
        Assert.Equal("zstd-1 model 60% (×0.30), raw incompressible 20% (×1.01), raw rejected 20% (×1.01)", BenchDecisionLogs.Describe(summary));
        Assert.Equal("-", BenchDecisionLogs.Describe(null));
    }

    [Fact]
    public void Adaptive_decisions_show_their_inputs_model_median_link_source_cpu_expected_gain_and_size()
    {
        static CompressionDecision D(double link, string source, double cpu, double rate) =>
            new(DateTimeOffset.UnixEpoch, "a", 1000, 360, CompressionCodec.Zstd, 3, CompressionDecisionReason.Model, 0.35, link, cpu, CompressionGoal.Latency)
            {
                LinkSource = source, PredictedRate = rate, RawPredictedRate = 10,
            };
        var summary = BenchDecisionLogs.Summarize([D(179_000, "send_rate", 0.04, 27.6), D(150_000, "round_trip", 0.05, 20), D(181_000, "send_rate", 0.02, 30)]);
        Assert.Equal("zstd-3 model 100% (×0.36; latency, link 0.179 MB/s send_rate, cpu 4%, gain 2.76, median 1 KB)", BenchDecisionLogs.Describe(summary));
    }

    [Fact]
    public void Published_figures_are_found_by_link_contender_and_size()
    {
        Assert.Equal(41.48, PublishedFigures.Get("loopback", "uncompressed", 1000));
        Assert.Equal(2125, PublishedFigures.Get("100mbit", "format-deflate", 100));
        Assert.Equal(5746, PublishedFigures.Get("1gbit", "format-gzip", 10));
        Assert.Null(PublishedFigures.Get("1.5mbit", "uncompressed", 10));
        Assert.Null(PublishedFigures.Get("loopback", "zstd-1", 10));
        Assert.Null(PublishedFigures.Get("loopback", "uncompressed", 50));
    }

    [Fact]
    public void Clients_add_up_ops_per_second_bytes_cpu_and_latency()
    {
        var spec = new BenchCellSpec("zstd-1", "orders", 1000, "net.tcp://x/", 1, 1, 2, 1);
        var a = new BenchCellMeasurement(100, 2.0, 10_000, 6_000_000, new ProcessStats(1_000_000, 1, 0, 0, 400), [[1000, 60], [2000, 40]]);
        var b = new BenchCellMeasurement(50, 2.5, 5_000, 3_000_000, new ProcessStats(500_000, 0, 0, 0, 200), [[4000, 50]]);
        BenchCell cell = BenchProcesses.Combine("100mbit", spec, [a, b], new ProcessStats(3_000_000, 2, 0, 0, 1500));
        Assert.Equal(150, cell.Calls);
        Assert.Equal((100 / 2.0) + (50 / 2.5), cell.OpsPerSecond, 9);
        Assert.Equal(9_000_000 / 150.0, cell.ResponseBytes, 9);
        Assert.Equal(15_000 / 150.0, cell.RequestBytes, 9);
        Assert.Equal(600 / 150.0, cell.ClientCpuMs, 9);
        Assert.Equal(1500 / 150.0, cell.ServerCpuMs, 9);
        Assert.Equal(1.5 / 2.5, cell.ServerCpuShare, 9);
        Assert.Equal(150, cell.Latency.Count);
        Assert.True(cell.Latency.P99 > cell.Latency.P50);
        Assert.Equal(2, cell.Clients);
        Assert.IsType<Percentiles>(cell.Latency);
    }

    [Fact]
    public void Replies_per_second_count_the_common_window_s_bytes_a_reply_in_flight_included()
    {
        var spec = new BenchCellSpec("zstd-1", "complex", 153600, "net.tcp://x/", 1, 1, 2, 2);
        // a: replies of 100,000 bytes, two and half of a third by STOP at 5 s, the third done at 5.6 s; b: two by
        // STOP, its last done just then.
        var a = new BenchCellMeasurement(3, 5.6, 300, 300_000, new ProcessStats(0, 0, 0, 0, 0), [[1000, 3]], Window: new BenchClientWindow(5.0, 250_000));
        var b = new BenchCellMeasurement(2, 5.0, 200, 200_000, new ProcessStats(0, 0, 0, 0, 0), [[1000, 2]], Window: new BenchClientWindow(5.0, 200_000));
        BenchCell cell = BenchProcesses.Combine("1.5mbit", spec, [a, b], new ProcessStats(0, 0, 0, 0, 0));
        Assert.Equal((2.5 / 5.0) + (2 / 5.0), cell.OpsPerSecond, 9);
        Assert.Equal(5, cell.Calls);
        Assert.Equal(100_000, cell.ResponseBytes, 9);
    }
}
