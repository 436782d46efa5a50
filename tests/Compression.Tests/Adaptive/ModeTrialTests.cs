using System.Diagnostics;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The trial that measures raw and the cheapest codec against the model's choice, on an injected clock: a service
/// whose throughput under each mode the test sets (messages per second of one size) runs its messages through
/// <see cref="ModeTrial.Next"/> and <see cref="ModeTrial.Sent"/>.
/// </summary>
public sealed class ModeTrialTests
{
    private const long Message = 16_384;

    [Theory]
    [InlineData(1000, 1800, 900, "Raw")]       // loopback: compressing costs the CPU more than it saves
    [InlineData(1000, 700, 1300, "Cheapest")]  // a fast link the model's other choices underrate
    [InlineData(1000, 1030, 980, "None")]      // within the margin: the model keeps deciding
    [InlineData(1000, 200, 1020, "None")]      // raw far slower (it drops out), the cheapest no faster
    public void The_trial_holds_the_mode_measured_fastest(double model, double raw, double cheapest, string verdict)
    {
        TrialMode expected = Enum.Parse<TrialMode>(verdict);
        var service = new TrialService(new ModeTrial(), model, raw, cheapest);
        service.Run(seconds: 2);
        Assert.Equal(1, service.Trial.Trials);
        Assert.Equal(expected, service.Trial.Verdict);
        var held = service.Run(seconds: 10);
        Assert.All(held, m => Assert.Equal(expected, m.Mode));
        Assert.All(held, m => Assert.Equal(expected != TrialMode.None, m.Held));
    }

    [Fact]
    public void A_mode_under_half_the_models_rate_in_two_rounds_leaves_the_trial()
    {
        var service = new TrialService(new ModeTrial(), 1000, 300, 1000);
        var modes = service.Run(seconds: 2);
        double rawSeconds = modes.Count(m => m.Mode == TrialMode.Raw) / 300.0;
        Assert.InRange(rawSeconds, 0.19, 0.22);
        Assert.Equal(4, modes.Count(m => m.Mode == TrialMode.Cheapest) / 100); // every round's epoch
    }

    [Fact]
    public void One_stalled_epoch_does_not_drop_a_mode()
    {
        var service = new TrialService(new ModeTrial(), 1000, 1800, 900) { StallRawOnce = true };
        service.Run(seconds: 2);
        Assert.Equal(TrialMode.Raw, service.Trial.Verdict);
    }

    [Fact]
    public void The_verdict_lasts_its_hold_then_a_new_trial_measures_again()
    {
        var service = new TrialService(new ModeTrial(), 1000, 1800, 900);
        service.Run(seconds: 2);
        Assert.Equal(TrialMode.Raw, service.Trial.Verdict);
        service.Raw = 1500; // slower, but not enough to end the hold early
        service.Run(seconds: ModeTrial.Hold.TotalSeconds - 2);
        Assert.Equal(1, service.Trial.Trials);
        service.Raw = 900;
        service.Run(seconds: 4);
        Assert.Equal(2, service.Trial.Trials);
        Assert.Equal(TrialMode.None, service.Trial.Verdict);
    }

    [Fact]
    public void A_held_mode_that_slows_below_what_the_trial_measured_is_measured_again_within_seconds()
    {
        var service = new TrialService(new ModeTrial(), 1000, 1800, 900);
        service.Run(seconds: 2);
        Assert.Equal(TrialMode.Raw, service.Trial.Verdict);
        service.Raw = 500; // the link under raw got slower
        var after = service.Run(seconds: 5);
        Assert.Equal(2, service.Trial.Trials);
        Assert.Equal(TrialMode.None, service.Trial.Verdict);
        int firstTrial = after.FindIndex(m => !m.Held);
        Assert.InRange(firstTrial, 500, 3 * 500); // the second slow 1-second window (the first may straddle the change)
    }

    [Fact]
    public void An_idle_gap_ends_the_verdict()
    {
        var service = new TrialService(new ModeTrial(), 1000, 1800, 900);
        service.Run(seconds: 2);
        Assert.Equal(TrialMode.Raw, service.Trial.Verdict);
        service.Idle(seconds: ModeTrial.IdleGap.TotalSeconds + 0.5);
        var after = service.Run(seconds: 0.2);
        Assert.All(after, m => Assert.False(m.Held));
        Assert.Equal(TrialMode.None, service.Trial.Verdict);
    }

    [Theory]
    [InlineData(false, 1000)]  // the latency goal, or a link the process fills: the model's estimate is the link's
    [InlineData(true, 150)]    // too few messages for 100 ms epochs
    public void No_trial_where_the_model_can_see_or_the_epochs_would_be_too_thin(bool eligible, double rate)
    {
        var service = new TrialService(new ModeTrial(), rate, rate * 2, rate * 2) { Eligible = eligible };
        var modes = service.Run(seconds: 5);
        Assert.All(modes, m => Assert.Equal(TrialMode.None, m.Mode));
        Assert.Equal(0, service.Trial.Trials);
    }

    [Fact]
    public void A_trial_the_load_leaves_stops_and_the_model_decides()
    {
        var service = new TrialService(new ModeTrial(), 1000, 1800, 900);
        service.Run(seconds: 0.5);
        service.Eligible = false;
        var modes = service.Run(seconds: 3);
        Assert.All(modes, m => Assert.Equal(TrialMode.None, m.Mode));
        Assert.Equal(0, service.Trial.Trials);
    }

    [Fact]
    public void The_adaptive_policy_sends_raw_when_the_trial_measures_it_faster_than_a_model_misled_about_the_link()
    {
        // The model is told 100 Mbit/s (and measures nothing); the link is 10 Gbit/s, so compressing only costs time.
        var env = new FakeEnvironment { Utilization = 0.9 };
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, goal: CompressionGoal.Throughput, cpuHigh: 1), env) { LinkBytesPerSecond = 1.25e9 };
        var first = world.Send(150_000, 20);
        Assert.All(first, c => Assert.NotNull(c.Codec));
        var choices = world.Send(150_000, 6000);
        var settled = choices.Skip(3000).ToList();
        Assert.All(settled, c => Assert.Equal(CompressionDecisionReason.TrialVerdict, c.Reason));
        Assert.All(settled, c => Assert.Null(c.Codec));
        Assert.Contains(choices, c => c.Reason == CompressionDecisionReason.Trial && c.Codec is CompressionCodec.Lz4);
    }

    [Fact]
    public void The_latency_goal_runs_no_trial()
    {
        var env = new FakeEnvironment { Utilization = 0.9 };
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, goal: CompressionGoal.Latency, cpuHigh: 1), env) { LinkBytesPerSecond = 1.25e9 };
        var choices = world.Send(150_000, 6000);
        Assert.DoesNotContain(choices, c => c.Reason is CompressionDecisionReason.Trial or CompressionDecisionReason.TrialVerdict);
    }

    /// <summary>A service sending <see cref="Message"/>-byte messages back to back at the rate of the mode it is told.</summary>
    private sealed class TrialService(ModeTrial trial, double model, double raw, double cheapest)
    {
        private long _now = Stopwatch.Frequency * 1000;

        public ModeTrial Trial { get; } = trial;

        public double Raw { get; set; } = raw;

        public bool Eligible { get; set; } = true;

        /// <summary>The first raw message takes 100 ms (a stall), once.</summary>
        public bool StallRawOnce { get; set; }

        public List<(TrialMode Mode, bool Held)> Run(double seconds)
        {
            var modes = new List<(TrialMode, bool)>();
            long end = _now + (long)(seconds * Stopwatch.Frequency);
            while (_now < end)
            {
                TrialMode mode = Trial.Next(_now, Eligible, out bool held);
                modes.Add((mode, held));
                double rate = mode switch { TrialMode.Raw => Raw, TrialMode.Cheapest => cheapest, _ => model };
                _now += (long)(Stopwatch.Frequency / rate);
                if (mode == TrialMode.Raw && StallRawOnce)
                {
                    StallRawOnce = false;
                    _now += Stopwatch.Frequency / 10;
                }

                Trial.Sent(_now, Message);
            }

            return modes;
        }

        public void Idle(double seconds) => _now += (long)(seconds * Stopwatch.Frequency);
    }
}
