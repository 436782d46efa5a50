using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>The 2011 DynamicEncoder's published rules, with injected CPU and ratios.</summary>
public sealed class Rules2011PolicyTests
{
    [Fact]
    public void Nothing_below_NoCompressionLimit_is_compressed()
    {
        var env = new FakeEnvironment();
        var settings = new CompressionSettings(CompressionCodec.Deflate, 6, 1024, 1 << 20, new Rules2011Policy(CompressionOptions.Rules2011, env));
        Assert.Equal(CompressionDecisionReason.BelowFloor, settings.Choose("urn:a", TestData.Text(1023), 1023).Reason);
        Assert.Equal(CompressionDecisionReason.SizeRule, settings.Choose("urn:a", TestData.Text(1024), 1024).Reason);
    }

    [Theory]
    [InlineData(1024, 2)]
    [InlineData(32 * 1024 - 1, 2)]
    [InlineData(32 * 1024, 6)]
    [InlineData(512 * 1024 - 1, 6)]
    [InlineData(512 * 1024, 9)]
    [InlineData(4 << 20, 9)]
    public void The_level_follows_the_size_thresholds(int length, int level)
    {
        var policy = new Rules2011Policy(CompressionOptions.Rules2011, new FakeEnvironment());
        CompressionChoice choice = policy.Choose("urn:a", TestData.Text(64), length);
        Assert.Equal((CompressionCodec.Deflate, level), (choice.Codec!.Value, choice.Level));
    }

    [Theory]
    [InlineData(0.50, 1.0)]
    [InlineData(0.70, 1.0)]
    [InlineData(0.85, 0.5)]
    [InlineData(0.94, 0.2)]
    [InlineData(1.00, 0.0)]
    public void Above_the_cpu_limit_compression_is_switched_off_progressively(double utilization, double share)
    {
        var env = new FakeEnvironment { Utilization = utilization };
        var world = new PolicyWorld(new Rules2011Policy(CompressionOptions.Rules2011, env), env) { PeerFixedSeconds = 0.05 };
        world.Send(100_000, 20); // a second: the CPU figure is measured
        List<CompressionChoice> choices = world.Send(100_000, 200);
        int compressed = choices.Count(c => c.Codec is not null);
        Assert.InRange(compressed, (200 * share) - 2, (200 * share) + 2);
        Assert.All(choices.Where(c => c.Codec is null), c => Assert.Equal(CompressionDecisionReason.CpuDisabled, c.Reason));
    }

    [Fact]
    public void An_action_whose_recent_ratio_is_worse_than_the_limit_goes_uncompressed_apart_from_one_in_32()
    {
        var env = new FakeEnvironment();
        var world = new PolicyWorld(new Rules2011Policy(CompressionOptions.Rules2011, env), env, (_, _) => new CodecBehaviour(0.8, 1 / 50e6))
        {
            Action = "urn:complex",
        };
        List<CompressionChoice> complex = world.Send(100_000, 96);
        Assert.Equal(CompressionDecisionReason.SizeRule, complex[0].Reason);
        Assert.Equal(3, complex.Count(c => c.Codec is not null)); // the first, then every 32nd
        Assert.All(complex.Where(c => c.Codec is null), c => Assert.Equal(CompressionDecisionReason.RatioDisabled, c.Reason));

        // Other actions, and other sizes of the same action, are judged on their own.
        world.Behaviour = (_, _) => new CodecBehaviour(0.2, 1 / 50e6);
        world.Action = "urn:simple";
        Assert.All(world.Send(100_000, 10), c => Assert.Equal(CompressionDecisionReason.SizeRule, c.Reason));
        world.Action = "urn:complex";
        Assert.Equal(CompressionDecisionReason.SizeRule, world.Send(1_000_000).Choice.Reason);

        // When the data compresses again, the re-measured messages bring the mean back under the limit.
        List<CompressionChoice> later = world.Send(100_000, 32 * 4);
        Assert.True(later.Skip(32 * 3).All(c => c.Codec is not null), "compression should be back on");
    }

    [Fact]
    public void The_preset_is_the_published_configuration()
    {
        CompressionOptions rules = CompressionOptions.Rules2011;
        Assert.Equal(CompressionPolicy.Rules2011, rules.Policy);
        Assert.Equal(CompressionCodec.Deflate, rules.Codec);
        Assert.Equal(1024, rules.MinMessageSize);
        Assert.Equal(0.70, rules.CpuDisableLimit);
        Assert.Equal(0.70, rules.CompressionRatioDisableLimit);
    }
}
