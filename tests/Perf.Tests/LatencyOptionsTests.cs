using Surrogate.Perf.Harness.Cli;
using Surrogate.Perf.Harness.Latency;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Latency.Soak;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Tests;

/// <summary>The latency command's options, presets, config files, matrix plan, cannot-work reasons, histogram merging and soak verdict, without running anything.</summary>
public sealed class LatencyOptionsTests : IDisposable
{
    private readonly string folder = Directory.CreateTempSubdirectory("perf-tests-latency-config-").FullName;

    [Fact]
    public void Default_is_the_full_preset_and_options_override_it()
    {
        LatencyOptions defaults = LatencyCli.Parse([]);
        Assert.Equal("full", defaults.Config.Name);
        Assert.Equal([10, 100, 1_000, 10_000, 100_000, 1_000_000], defaults.Config.Sizes);
        Assert.Equal(600, defaults.Config.Soak.Seconds);
        Assert.Equal(64, defaults.Config.Soak.Clients);
        Assert.False(defaults.Soak);
        Assert.True(defaults.Pin);

        LatencyOptions smoke = LatencyCli.Parse(["--preset", "smoke", "--duration", "2", "--warmup", "0.5", "--sizes", "10,1000", "--soak", "--soak-seconds", "9", "--server", "soaphost", "--no-pin", "--out", "x"]);
        Assert.Equal("smoke", smoke.Config.Name);
        Assert.Equal(2, smoke.Config.MeasureSeconds);
        Assert.Equal(0.5, smoke.Config.WarmupSeconds);
        Assert.Equal([10, 1000], smoke.Config.Sizes);
        Assert.True(smoke.Soak);
        Assert.Equal(9, smoke.Config.Soak.Seconds);
        Assert.True(smoke.Config.Soak.WarmupSeconds < 9);
        Assert.Equal("soaphost", smoke.Server);
        Assert.False(smoke.Pin);
        Assert.Equal("x", smoke.OutputDirectory);
    }

    [Theory]
    [InlineData("--preset", "huge")]
    [InlineData("--sizes", "10,ten")]
    [InlineData("--sizes", "0")]
    [InlineData("--duration", "0")]
    [InlineData("--server", "iis")]
    [InlineData("--link", "fast")]
    [InlineData("--bogus", "1")]
    public void Bad_latency_options_are_refused_with_a_message(string option, string value)
    {
        var error = Assert.Throws<ArgumentException>(() => LatencyCli.Parse([option, value]));
        Assert.False(string.IsNullOrWhiteSpace(error.Message));
    }

    [Fact]
    public void A_config_file_extends_a_preset_and_replaces_its_top_level_properties()
    {
        string path = Path.Combine(folder, "mine.json");
        File.WriteAllText(path, """
            // comments are allowed
            { "extends": "smoke", "name": "mine", "sizes": [42], "vary": { "binding": ["BasicHttp"] }, "crosses": [],
              "base": { "data": "Text", "instancing": "Single" } }
            """);
        LatencyConfig config = LatencyCli.Parse(["--config", path]).Config;
        Assert.Equal("mine", config.Name);
        Assert.Equal(1, config.MeasureSeconds); // from smoke
        Assert.Equal(DataKind.Text, config.Base.Data);
        Assert.Equal(Instancing.Single, config.Base.Instancing);
        Assert.Equal(BindingKind.NetTcp, config.Base.Binding); // the base record's default where the file names none

        IReadOnlyList<LatencyCell> plan = MatrixPlanner.Plan(config);
        Assert.Equal(2, plan.Count); // the base and BasicHttp, at 42 bytes
        Assert.All(plan, c => Assert.Equal(42, c.Size));
        Assert.Contains(plan, c => c.Binding == BindingKind.BasicHttp && c.Data == DataKind.Text);
    }

    [Theory]
    [InlineData("""{ "sizes": [] }""")]
    [InlineData("""{ "unknownThing": 1 }""")]
    [InlineData("""{ "base": { "binding": "Carrier pigeon" } }""")]
    [InlineData("""{ "soak": { "seconds": 10, "warmupSeconds": 20 } }""")]
    [InlineData("""not json""")]
    public void Bad_config_files_are_refused_with_a_message(string text)
    {
        string path = Path.Combine(folder, "bad.json");
        File.WriteAllText(path, text);
        var error = Assert.Throws<ArgumentException>(() => LatencyCli.Parse(["--config", path]));
        Assert.Contains("bad.json", error.Message + " " + (error.InnerException?.Message ?? string.Empty) + " " + path, StringComparison.Ordinal);
    }

    [Fact]
    public void Full_preset_varies_one_dimension_at_a_time_over_every_size_and_sweeps_the_DataSet()
    {
        LatencyConfig full = LatencyConfig.Preset("full");
        IReadOnlyList<LatencyCell> plan = MatrixPlanner.Plan(full);
        Assert.Equal(plan.Count, plan.Select(c => c.Key).Distinct().Count());
        BaseCell b = full.Base;
        Assert.Equal((Scope.SameMachine, BindingKind.NetTcp, Instancing.PerCall, CallMode.TwoWay, SerializerKind.DataContract, DataKind.Bytes),
            (b.Scope, b.Binding, b.Instancing, b.CallMode, b.Serializer, b.Data));
        foreach (BindingKind binding in Enum.GetValues<BindingKind>())
        {
            Assert.Equal(6, plan.Count(c => c == b.At(c.Size) with { Binding = binding }));
            Assert.Equal(6, plan.Count(c => c.Data == DataKind.DataSet && c.Serializer == SerializerKind.Surrogate && c.Binding == binding));
        }

        Assert.Equal(6, plan.Count(c => c == b.At(c.Size) with { Scope = Scope.Direct }));
        Assert.Contains(plan, c => c == b.At(1_000_000) with { Load = LoadModel.Open });
    }

    [Theory]
    [InlineData(Feasibility.StandIn, BindingKind.NetUds, "no net.uds")]
    [InlineData(Feasibility.StandIn, BindingKind.WSHttp, null)]
    [InlineData(Feasibility.CoreWcf, BindingKind.NetUds, null)]
    [InlineData(Feasibility.CoreWcf, BindingKind.HttpUds, "net.uds")]
    public void Bindings_a_server_lacks_are_listed_with_the_reason(string server, BindingKind binding, string? reason)
    {
        LatencyCell cell = new BaseCell().At(100) with { Binding = binding };
        string? actual = Feasibility.Reason(cell, server, remoteMissing: null);
        if (reason is null)
        {
            Assert.Null(actual);
        }
        else
        {
            Assert.Contains(reason, actual, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Combinations_that_cannot_work_say_why_and_the_rest_run()
    {
        LatencyCell b = new BaseCell().At(100);
        Assert.Contains("session", Feasibility.Reason(b with { Binding = BindingKind.BasicHttp, Instancing = Instancing.PerSession, CallMode = CallMode.OneWay }, Feasibility.CoreWcf, null));
        Assert.Contains("no serializer", Feasibility.Reason(b with { Data = DataKind.Stream, Serializer = SerializerKind.Xml }, Feasibility.CoreWcf, null));
        Assert.Contains("DataSets only", Feasibility.Reason(b with { Serializer = SerializerKind.Surrogate }, Feasibility.CoreWcf, null));
        Assert.Contains("Stream", Feasibility.Reason(b with { Data = DataKind.Stream }, Feasibility.StandIn, null));
        Assert.Contains("root", Feasibility.Reason(b with { Scope = Scope.Remote }, Feasibility.CoreWcf, "needs root"));
        Assert.Contains("Unix socket", Feasibility.Reason(b with { Scope = Scope.Remote, Binding = BindingKind.NetUds }, Feasibility.CoreWcf, null));
        Assert.Contains("TLS", Feasibility.Reason(b with { Security = Security.Transport, Binding = BindingKind.BasicHttp }, Feasibility.StandIn, null));
        Assert.Null(Feasibility.Reason(b with { Security = Security.Transport, Binding = BindingKind.BasicHttp }, Feasibility.CoreWcf, null));
        Assert.Null(Feasibility.Reason(b with { Data = DataKind.DataSet, Serializer = SerializerKind.Surrogate, Binding = BindingKind.HttpUds }, Feasibility.StandIn, null));
        Assert.Null(Feasibility.Reason(b with { Data = DataKind.NestedBinary, Serializer = SerializerKind.DataContractReferences, Instancing = Instancing.PerSession }, Feasibility.CoreWcf, null));
    }

    [Fact]
    public void Merged_histograms_give_the_percentiles_of_all_values_not_the_average_of_percentiles()
    {
        var fast = Histograms.Create();
        var slow = Histograms.Create();
        var all = Histograms.Create();
        for (int i = 1; i <= 900; i++)
        {
            Histograms.Record(fast, 1000 + i);
            Histograms.Record(all, 1000 + i);
        }

        for (int i = 1; i <= 100; i++)
        {
            Histograms.Record(slow, 1_000_000 + i);
            Histograms.Record(all, 1_000_000 + i);
        }

        Percentiles merged = Histograms.Summarize(Histograms.Merge([fast, slow]));
        Percentiles expected = Histograms.Summarize(all);
        Assert.Equal(expected, merged);
        Assert.Equal(1000, merged.Count);
        Assert.True(merged.P50 < merged.P99 / 100, "p50 sits among the fast calls, p99 among the slow");
        double averaged = (Histograms.Summarize(fast).P99 + Histograms.Summarize(slow).P99) / 2;
        Assert.NotEqual(averaged, merged.P99);
        Assert.Equal(Histograms.SpectrumLevels.Length, Histograms.Spectrum(Histograms.Merge([fast, slow])).Count);
    }

    [Fact]
    public void Soak_passes_when_flat_and_fails_on_growth_errors_descriptors_or_too_few_samples()
    {
        var config = new SoakConfig { Seconds = 60, WarmupSeconds = 10, GrowthLimit = 1.1, HeapAllowanceBytes = 1 << 20, FdAllowance = 4 };
        MemorySample At(double seconds, long heapMb, int fds) => new(seconds, heapMb << 20, heapMb << 20, 100 << 20, fds, 20);
        MemorySample[] flat = [At(0, 5, 30), At(5, 40, 90), At(10, 20, 100), At(30, 21, 101), At(60, 22, 102)];

        SoakVerdict passed = SoakVerdict.Evaluate(flat, config, calls: 1000, errors: 0);
        Assert.True(passed.Passed, string.Join("; ", passed.Failures));
        Assert.Equal(10, passed.Start!.Seconds); // the first sample after the warm-up, not the start-up heap
        Assert.Contains("1.1", passed.Criterion, StringComparison.Ordinal);

        Assert.False(SoakVerdict.Evaluate(flat, config, calls: 1000, errors: 1).Passed);
        Assert.False(SoakVerdict.Evaluate(flat, config, calls: 0, errors: 0).Passed);
        var grown = SoakVerdict.Evaluate([.. flat[..^1], At(60, 24, 102)], config, 1000, 0); // 20 MB × 1.1 + 1 MB = 23 MB
        Assert.False(grown.Passed);
        Assert.Contains(grown.Failures, f => f.Contains("retained heap", StringComparison.Ordinal));
        var leaking = SoakVerdict.Evaluate([.. flat[..^1], At(60, 22, 105)], config, 1000, 0);
        Assert.Contains(leaking.Failures, f => f.Contains("descriptors", StringComparison.Ordinal));
        Assert.False(SoakVerdict.Evaluate([At(0, 5, 30), At(12, 5, 30)], config, 1000, 0).Passed);
    }

    public void Dispose() => Directory.Delete(folder, recursive: true);
}
