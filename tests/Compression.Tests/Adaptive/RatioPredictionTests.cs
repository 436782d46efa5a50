using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>What the adaptive policy expects of a ladder step a key has not measured (the default ladder).</summary>
public sealed class RatioPredictionTests
{
    private static readonly Arm[] Ladder = ArmLadder.Build(CompressionOptions.Adaptive.AdaptiveCodecs);

    [Fact]
    public void Nothing_measured_gives_the_prior_and_a_measured_step_its_measurement()
    {
        var estimates = new Estimates(Ladder.Length, 0);
        Assert.Equal(1, RatioPrediction.Of(Ladder, estimates, 0));
        Assert.Equal(Step("zstd-9").PriorRatio, RatioPrediction.Of(Ladder, estimates, Step("zstd-9").Index));
        estimates.Observe(Step("zstd-9").Index, 0.118, 1e-8);
        Assert.Equal(0.118, RatioPrediction.Of(Ladder, estimates, Step("zstd-9").Index));
    }

    [Fact]
    public void A_level_between_two_measured_levels_of_its_codec_takes_the_geometric_mean_of_both_scalings()
    {
        // zstd 6 and 15 measured (0.135, 0.115), DEFLATE 6 nearer in the ladder (0.125): zstd 9 comes from its own codec.
        var estimates = new Estimates(Ladder.Length, 0);
        estimates.Observe(Step("deflate-6").Index, 0.125, 1e-8);
        estimates.Observe(Step("zstd-6").Index, 0.135, 1e-8);
        estimates.Observe(Step("zstd-15").Index, 0.115, 1e-8);
        double fromBelow = 0.135 * Step("zstd-9").PriorRatio / Step("zstd-6").PriorRatio;
        double fromAbove = 0.115 * Step("zstd-9").PriorRatio / Step("zstd-15").PriorRatio;
        Assert.Equal(Math.Sqrt(fromBelow * fromAbove), RatioPrediction.Of(Ladder, estimates, Step("zstd-9").Index), 12);
        Assert.True(RatioPrediction.Of(Ladder, estimates, Step("zstd-9").Index) < 0.125);
    }

    [Fact]
    public void A_level_above_the_measured_levels_of_its_codec_scales_the_nearest_one_below()
    {
        var estimates = new Estimates(Ladder.Length, 0);
        estimates.Observe(Step("zstd-1").Index, 0.145, 1e-8);
        estimates.Observe(Step("zstd-6").Index, 0.135, 1e-8);
        Assert.Equal(0.135 * 0.18 / 0.20, RatioPrediction.Of(Ladder, estimates, Step("zstd-15").Index), 12);
    }

    [Fact]
    public void Without_a_measured_level_of_its_codec_a_step_scales_the_nearest_measured_step_of_another()
    {
        // LZ4 and zstd 15 are both three steps from DEFLATE 6; the lower counts. Data that compresses worse than the
        // priors: the saving scales (LZ4 at 0.91 gives DEFLATE 6 1 - 0.79 × 0.09 / 0.65).
        var estimates = new Estimates(Ladder.Length, 0);
        estimates.Observe(Step("lz4-0").Index, 0.91, 1e-9);
        estimates.Observe(Step("zstd-15").Index, 0.88, 1e-7);
        Assert.Equal(1 - (0.79 * 0.09 / 0.65), RatioPrediction.Of(Ladder, estimates, Step("deflate-6").Index), 12);
    }

    [Fact]
    public void An_assumed_ratio_holds_only_until_a_step_is_measured()
    {
        var estimates = new Estimates(Ladder.Length, 0);
        for (int step = 1; step < Ladder.Length; step++)
        {
            estimates.Assume(step, 1);
        }

        Assert.Equal(1, RatioPrediction.Of(Ladder, estimates, Step("zstd-3").Index));
        estimates.Observe(Step("zstd-1").Index, 0.5, 1e-8);
        Assert.Equal(1 - (0.78 * 0.5 / 0.75), RatioPrediction.Of(Ladder, estimates, Step("zstd-3").Index), 12);
    }

    private static Arm Step(string name) => Ladder.Single(a => PolicyWorld.Name(a.Codec, a.Level) == name);
}
