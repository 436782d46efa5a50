using Surrogate.Perf.Harness.Cli;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Tests;

/// <summary>Command-line parsing and the ratio arithmetic, without running anything.</summary>
public sealed class HarnessOptionsTests
{
    [Fact]
    public void Defaults_are_the_full_profile_over_every_scenario_and_case()
    {
        var options = HarnessOptions.Parse([]);
        Assert.Equal("full", options.Profile.Name);
        Assert.Equal(["small", "rows-10000", "rows-15000", "orders"], options.Scenarios);
        Assert.Equal(["nettcp-binary", "nettcp-surrogate", "nettcp-binary-load", "nettcp-surrogate-load", "basichttp-text", "asmx-text", "objects"], options.Cases);
        Assert.Null(options.Server);
        Assert.True(options.Pin);
        Assert.False(options.Trace);
        Assert.Null(options.Link);
    }

    [Theory]
    [InlineData("100mbit", 100_000_000, 50_000)]
    [InlineData("1gbit", 1_000_000_000, 500_000)]
    [InlineData("20Mbit", 20_000_000, 32_768)]
    [InlineData("500kbit", 500_000, 32_768)]
    [InlineData("12.5mbps", 100_000_000, 50_000)]
    [InlineData("1mibit", 1_048_576, 32_768)]
    [InlineData("64000", 64_000, 32_768)]
    public void Link_rates_are_read_as_tc_reads_them_and_the_burst_is_one_tick_at_least_32_KB(string text, long bits, long burst)
    {
        var rate = HarnessOptions.Parse(["--link", text]).Link!;
        Assert.Equal(bits, rate.BitsPerSecond);
        Assert.Equal(burst, rate.BurstBytes);
        Assert.Equal(bits + "bit", rate.TcRate);
    }

    [Fact]
    public void Duration_overrides_the_quick_profile_in_either_order()
    {
        Assert.Equal(7, HarnessOptions.Parse(["--duration", "7", "--quick"]).Profile.MeasureSeconds);
        Assert.Equal(7, HarnessOptions.Parse(["--quick", "--duration", "7"]).Profile.MeasureSeconds);
        Assert.Equal("quick", HarnessOptions.Parse(["--duration", "7", "--quick"]).Profile.Name);
    }

    [Theory]
    [InlineData("--cases", "nettcp-binary,udp")]
    [InlineData("--scenarios", "huge")]
    [InlineData("--duration", "-1")]
    [InlineData("--bogus", "x")]
    [InlineData("--link", "fast")]
    [InlineData("--link", "100mbits")]
    [InlineData("--link", "1bit")]
    public void Bad_options_are_refused_with_a_message(string option, string value)
    {
        var error = Assert.Throws<ArgumentException>(() => HarnessOptions.Parse([option, value]));
        Assert.False(string.IsNullOrWhiteSpace(error.Message));
    }

    [Theory]
    [InlineData("compression", "--contenders", "raw")]
    [InlineData("compression", "--rounds", "0")]
    [InlineData("latency", "--preset", "huge")]
    [InlineData("run", "--link", "fast")]
    public async Task A_bad_value_on_the_command_line_exits_with_2_and_its_message_not_a_stack_trace(string command, string option, string value)
    {
        // The value is read when the command's action starts, so System.CommandLine's own handler would catch it
        // (exit 1, "Unhandled exception" and the stack trace) before the harness's message and exit code 2.
        Assert.Equal(2, await HarnessCli.InvokeAsync([command, option, value]));
    }

    [Fact]
    public void Ratios_are_taken_against_the_baseline_of_the_same_scenario_and_objects_against_rows_10000()
    {
        CellResult Cell(string c, string s, double median, double bytes) => new()
        {
            Case = c, CaseLabel = c, Scenario = s, Rows = 1, Calls = 10, Seconds = 1,
            Latency = new LatencySummary(median, median, median, median, median),
            RequestBytes = 0, ResponseBytes = bytes,
            Client = new PerCallCost(1, 0, 0, 0, 1), Server = new PerCallCost(1, 0, 0, 0, 1),
        };

        var cells = RunReport.WithRatios(
            [Cell("base", "rows-10000", 10, 1000), Cell("fast", "rows-10000", 2, 250), Cell("base", "small", 1, 100), Cell("objects", "objects-10000", 5, 500)],
            "base", "objects-10000");

        Assert.Equal(1.0, cells[0].TimeRatio);
        Assert.Equal(0.2, cells[1].TimeRatio!.Value, 9);
        Assert.Equal(0.25, cells[1].BytesRatio!.Value, 9);
        Assert.Equal(0.5, cells[3].TimeRatio!.Value, 9);
        Assert.Equal("rows-10000", cells[3].BaselineScenario);
    }
}
