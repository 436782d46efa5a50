using System.Diagnostics.Metrics;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>The decision log's ring and entries, the meter's instruments and tags, and the options' validation.</summary>
[Collection(MeterCollection.Name)]
public sealed class ObservabilityTests
{
    [Fact]
    public void The_log_keeps_the_last_decisions_oldest_first()
    {
        var env = new FakeEnvironment();
        var log = new CompressionDecisionLog(capacity: 16);
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, log: log), env) { LinkBytesPerSecond = 12.5e6 };
        for (int i = 0; i < 40; i++)
        {
            world.Send(10_000 + i);
        }

        IReadOnlyList<CompressionDecision> decisions = log.Snapshot();
        Assert.Equal(40, log.Count);
        Assert.Equal(Enumerable.Range(24, 16).Select(i => 10_000L + i), decisions.Select(d => d.Length));
        Assert.All(decisions.Zip(decisions.Skip(1)), p => Assert.True(p.First.Time <= p.Second.Time));
        CompressionDecision last = decisions[^1];
        Assert.Equal(world.Action, last.Action);
        Assert.Equal(12.5e6, last.LinkBytesPerSecond);
        Assert.Equal(CompressionGoal.Latency, last.Goal);
        Assert.InRange(last.PredictedRatio, 0.1, 0.5);
        Assert.True(last.WireLength < last.Length);
    }

    [Fact]
    public void A_reader_that_passes_its_position_back_sees_each_decision_once_and_counts_what_the_ring_dropped()
    {
        var env = new FakeEnvironment();
        var log = new CompressionDecisionLog(capacity: 16);
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, log: log), env) { LinkBytesPerSecond = 12.5e6 };
        long position = 0;
        Assert.Empty(log.Since(ref position));
        Assert.Equal(0, position);

        world.Send(10_000, 5);
        Assert.Equal(Enumerable.Range(0, 5).Select(_ => 10_000L), log.Since(ref position).Select(d => d.Length));
        Assert.Equal(5, position);
        Assert.Empty(log.Since(ref position));

        // 30 more than a ring of 16 holds: the last 16 come back, and the position says 30 were written.
        for (int i = 0; i < 30; i++)
        {
            world.Send(20_000 + i);
        }

        long before = position;
        IReadOnlyList<CompressionDecision> fresh = log.Since(ref position);
        Assert.Equal(35, position);
        Assert.Equal(30, position - before);
        Assert.Equal(Enumerable.Range(14, 16).Select(i => 20_000L + i), fresh.Select(d => d.Length));

        long ahead = 36;
        long negative = -1;
        Assert.Throws<ArgumentOutOfRangeException>(() => log.Since(ref ahead));
        Assert.Throws<ArgumentOutOfRangeException>(() => log.Since(ref negative));
    }

    [Fact]
    public void The_log_records_rejections_and_every_policy_writes_to_it()
    {
        var env = new FakeEnvironment();
        var log = new CompressionDecisionLog();
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, log: log), env, PolicyWorld.Incompressible) { LinkBytesPerSecond = 12.5e6 };
        world.Send(100_000, 200);
        Assert.Contains(log.Snapshot(), d => d.Reason == CompressionDecisionReason.Rejected && d.Codec is not null && d.WireLength == d.Length + 11);

        var rules = new PolicyWorld(new Rules2011Policy(CompressionOptions.Rules2011 with { DecisionLog = log }, env), env);
        rules.Send(100_000);
        var fixedPolicy = new PolicyWorld(new FixedPolicy(CompressionCodec.Brotli, 4, log), env);
        fixedPolicy.Send(100_000);
        IReadOnlyList<CompressionDecision> decisions = log.Snapshot();
        Assert.Equal((CompressionCodec.Deflate, 6, CompressionDecisionReason.SizeRule), (decisions[^2].Codec!.Value, decisions[^2].Level, decisions[^2].Reason));
        Assert.True(double.IsNaN(decisions[^2].PredictedRatio));
        Assert.Equal((CompressionCodec.Brotli, 4, CompressionDecisionReason.Fixed), (decisions[^1].Codec!.Value, decisions[^1].Level, decisions[^1].Reason));
        Assert.Null(decisions[^1].Goal);
    }

    [Fact]
    public void Below_the_floor_nothing_is_logged()
    {
        var log = new CompressionDecisionLog();
        var settings = new CompressionSettings(CompressionCodec.Zstd, 3, 1024, 1 << 20, new FixedPolicy(CompressionCodec.Zstd, 3, log));
        TestData.Encode(new RecordingPool(), TestData.Text(1000), settings);
        Assert.Equal(0, log.Count);
        TestData.Encode(new RecordingPool(), TestData.Text(5000), settings);
        Assert.Equal(1, log.Count);
    }

    [Fact]
    public void The_meter_reports_choices_ratios_and_estimates_per_action()
    {
        string action = "urn:meter/" + Guid.NewGuid();
        var measurements = new List<(string Instrument, double Value, Dictionary<string, object?> Tags)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == CompressionTelemetry.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((i, v, tags, _) => Record(i, v, tags));
        listener.SetMeasurementEventCallback<double>((i, v, tags, _) => Record(i, v, tags));
        listener.Start();

        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 100_000_000);
        var world = new PolicyWorld(policy, env) { LinkBytesPerSecond = 12.5e6, Action = action };
        world.Send(150_000, 20);
        policy.Received(new CompressionOutcome(false, CompressionCodec.Zstd, 0, 150_000, 40_000, 150_000 * System.Diagnostics.Stopwatch.Frequency / 700_000_000));

        List<(string Instrument, double Value, Dictionary<string, object?> Tags)> ours;
        lock (measurements)
        {
            ours = [.. measurements.Where(m => Equals(m.Tags.GetValueOrDefault(CompressionTelemetry.ActionTag), action))];
        }

        Assert.Equal(20, ours.Where(m => m.Instrument == CompressionTelemetry.MessagesInstrument).Sum(m => m.Value));
        Assert.Contains(ours, m => m.Instrument == CompressionTelemetry.MessagesInstrument
            && (string?)m.Tags[CompressionTelemetry.CodecTag] == "zstd" && (string?)m.Tags[CompressionTelemetry.LevelTag] == "1" && (string?)m.Tags[CompressionTelemetry.ReasonTag] == "model");
        Assert.Contains(ours, m => m.Instrument == CompressionTelemetry.RatioInstrument && m.Value is > 0.2 and < 0.3);
        Assert.Contains(ours, m => m.Instrument == CompressionTelemetry.EstimatedRatioInstrument && (string?)m.Tags[CompressionTelemetry.SizeTag] == "131072");
        Assert.Contains(ours, m => m.Instrument == CompressionTelemetry.EstimatedSpeedInstrument && m.Value is > 250e6 and < 350e6);
        Assert.Contains(ours, m => m.Instrument == CompressionTelemetry.BytesInstrument && (string?)m.Tags[CompressionTelemetry.StageTag] == "wire");
        lock (measurements)
        {
            Assert.Contains(measurements, m => m.Instrument == CompressionTelemetry.DecodeSpeedInstrument && m.Value is > 600e6 and < 800e6);
            Assert.Contains(measurements, m => m.Instrument == CompressionTelemetry.LinkRateInstrument && m.Value == 12.5e6);
        }

        void Record(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var copy = new Dictionary<string, object?>();
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                copy[tag.Key] = tag.Value;
            }

            lock (measurements)
            {
                measurements.Add((instrument.Name, value, copy));
            }
        }
    }

    [Fact]
    public void Adaptive_and_2011_options_out_of_range_are_refused_with_their_name()
    {
        var binding = new System.ServiceModel.NetTcpBinding(System.ServiceModel.SecurityMode.None);
        foreach ((CompressionOptions options, string name) in new (CompressionOptions, string)[]
        {
            (CompressionOptions.Adaptive with { Policy = (CompressionPolicy)7 }, "Policy"),
            (CompressionOptions.Adaptive with { Goal = (CompressionGoal)9 }, "Goal"),
            (CompressionOptions.Adaptive with { AdaptiveCodecs = [] }, "AdaptiveCodecs"),
            (CompressionOptions.Adaptive with { AdaptiveCodecs = [CompressionCodec.Zstd, CompressionCodec.Zstd] }, "AdaptiveCodecs"),
            (CompressionOptions.Adaptive with { ExplorationRate = 0.6 }, "ExplorationRate"),
            (CompressionOptions.Adaptive with { ExplorationRate = double.NaN }, "ExplorationRate"),
            (CompressionOptions.Adaptive with { MinSaving = -0.1 }, "MinSaving"),
            (CompressionOptions.Adaptive with { LinkBitsPerSecond = 10 }, "LinkBitsPerSecond"),
            (CompressionOptions.Adaptive with { CpuHighWatermark = 1.5 }, "CpuHighWatermark"),
            (CompressionOptions.Adaptive with { CpuLowWatermark = 0.9 }, "CpuLowWatermark"),
            (CompressionOptions.Rules2011 with { LevelThresholds = [100, 10] }, "LevelThresholds"),
            (CompressionOptions.Rules2011 with { LevelThresholds = [100] }, "LevelThresholds"),
            (CompressionOptions.Rules2011 with { CpuDisableLimit = 0 }, "CpuDisableLimit"),
            (CompressionOptions.Rules2011 with { CompressionRatioDisableLimit = 2 }, "CompressionRatioDisableLimit"),
        })
        {
            var error = Assert.Throws<ArgumentException>(() => binding.WithCompression(options));
            Assert.Equal(name, error.ParamName);
            Assert.Contains("CompressionOptions." + name, error.Message, StringComparison.Ordinal);
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => new CompressionDecisionLog(0));
    }

    [Fact]
    public void The_presets_build_their_policies()
    {
        var binding = new System.ServiceModel.NetTcpBinding(System.ServiceModel.SecurityMode.None);
        Assert.IsType<AdaptivePolicy>(Settings(binding.WithCompression(CompressionOptions.Adaptive)).Policy);
        Assert.IsType<Rules2011Policy>(Settings(binding.WithCompression(CompressionOptions.Rules2011)).Policy);
        Assert.IsType<FixedPolicy>(Settings(binding.WithCompression()).Policy);
        Assert.Equal(
            ["raw", "lz4-0", "zstd-1", "zstd-3", "deflate-6", "zstd-6", "zstd-9", "zstd-15"],
            ((AdaptivePolicy)Settings(binding.WithCompression(CompressionOptions.Adaptive)).Policy).Arms.Select(a => PolicyWorld.Name(a.Codec, a.Level)));

        static CompressionSettings Settings(System.ServiceModel.Channels.CustomBinding binding) =>
            binding.Elements.Find<Surrogate.Compression.ServiceModel.CompressingEncodingBindingElement>()!.Settings;
    }
}
