using Surrogate.Compression.Policies;
using Xunit.Abstractions;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The adaptive policy over time, on an injected clock: the CPU guard's steps and hysteresis, the exploration rate,
/// and recovery after the link rate changes (measured by the policy itself from the simulated round trips).
/// </summary>
public sealed class AdaptiveLoopTests(ITestOutputHelper output)
{
    private const long Message = 150_000;

    [Fact]
    public void Cpu_pressure_steps_down_one_step_per_two_seconds_and_back_up_one_per_five_or_one_a_second_when_idle()
    {
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_500_000, exploration: 0);
        var world = new PolicyWorld(policy, env) { LinkBytesPerSecond = 1_500_000 / 8.0 };
        Assert.Equal("zstd-9", PolicyWorld.Name(world.Send(Message, 20)[^1]));

        env.Utilization = 0.95;
        List<(double Seconds, int Cap)> down = CapChanges(world, policy, seconds: 11, (choice, cap) =>
            Assert.True(choice.Reason == CompressionDecisionReason.Exploration || choice.Arm <= cap, $"step {choice.Arm} above cap {cap}"));
        output.WriteLine("down: " + string.Join(", ", down.Select(d => $"{d.Cap} at {d.Seconds:F2} s")));
        // Steps down one at a time: the first after 2 s of pressure (the CPU figure is smoothed, so pressure shows
        // within about 1.5 s of the change), then one per 2 s (±1 message).
        Assert.InRange(down.Count, 4, 5);
        Assert.InRange(down[0].Seconds, 2, 4);
        Assert.True(down[0].Cap < policy.Arms.Single(a => a.Codec == CompressionCodec.Zstd && a.Level == 9).Index);
        Assert.All(down.Zip(down.Skip(1)), p => Assert.Equal((p.First.Cap - 1, true), (p.Second.Cap, p.Second.Seconds - p.First.Seconds is >= 2 and < 2.5)));
        int lowest = down[^1].Cap;

        // Between the watermarks, with the model still preferring zstd 9 above the cap: relief, one step after 5 s
        // (the guard in CpuGuardTests holds the cap there when the model's choice fits under it).
        env.Utilization = 0.7;
        List<(double Seconds, int Cap)> first = CapChanges(world, policy, seconds: 6.5);
        Assert.Equal(lowest + 1, Assert.Single(first).Cap);
        Assert.InRange(first[0].Seconds, 5, 6.5);

        env.Utilization = 0.55; // relief: one step up per 5 s held
        List<(double Seconds, int Cap)> up = CapChanges(world, policy, seconds: 11);
        output.WriteLine("up: " + string.Join(", ", up.Select(d => $"{d.Cap} at {d.Seconds:F2} s")));
        Assert.Equal(2, up.Count);
        Assert.InRange(up[0].Seconds, 3.5, 5.5);
        Assert.InRange(up[1].Seconds - up[0].Seconds, 5, 5.5);
        Assert.Equal(lowest + 3, up[^1].Cap);

        env.Utilization = 0.3; // idle (at most half the high watermark): one step up a second, until uncapped
        List<(double Seconds, int Cap)> idle = CapChanges(world, policy, seconds: 30);
        output.WriteLine("idle: " + string.Join(", ", idle.Select(d => $"{d.Cap} at {d.Seconds:F2} s")));
        Assert.InRange(idle[0].Seconds, 1, 2.5);
        Assert.All(idle.Zip(idle.Skip(1)), p => Assert.InRange(p.Second.Seconds - p.First.Seconds, 1, 1.5));
        Assert.Equal(CpuMonitor.Uncapped, idle[^1].Cap);
        Assert.Equal(policy.Arms.Count - 2 - lowest - up.Count, idle.Count);
        // The model's own choice (uncapped, the step above zstd 9 is tried now and then: every 5 s without exploring).
        CompressionChoice next = world.Send(Message).Choice;
        next = next.Reason == CompressionDecisionReason.Exploration ? world.Send(Message).Choice : next;
        Assert.Equal((CompressionDecisionReason.Model, "zstd-9"), (next.Reason, PolicyWorld.Name(next)));
    }

    /// <summary>
    /// Sends for <paramref name="seconds"/>; the times (from the start) at which the guard's cap changed, and to what:
    /// the start of the decision that changed it (the guard samples as a decision begins), not the end of its message,
    /// which on 1.5 Mbit/s is 0.8 s later for a raw one.
    /// </summary>
    private static List<(double Seconds, int Cap)> CapChanges(PolicyWorld world, AdaptivePolicy policy, double seconds, Action<CompressionChoice, int>? check = null)
    {
        var changes = new List<(double, int)>();
        double start = Seconds(world.Env);
        int cap = policy.Cpu.Cap;
        while (Seconds(world.Env) - start < seconds)
        {
            double decided = Seconds(world.Env) - start;
            CompressionChoice choice = world.Send(Message).Choice;
            check?.Invoke(choice, policy.Cpu.Cap);
            if (policy.Cpu.Cap != cap)
            {
                cap = policy.Cpu.Cap;
                changes.Add((decided, cap));
            }
        }

        return changes;
    }

    [Fact]
    public void A_growing_thread_pool_queue_is_pressure_even_at_low_cpu()
    {
        var env = new FakeEnvironment { Utilization = 0.3 };
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_500_000, exploration: 0);
        var world = new PolicyWorld(policy, env) { LinkBytesPerSecond = 1_500_000 / 8.0 };
        world.Send(Message, 10);
        env.PendingWorkItems = 50;
        double start = Seconds(env);
        while (Seconds(env) - start < 3)
        {
            world.Send(Message);
        }

        Assert.NotEqual(CpuMonitor.Uncapped, policy.Cpu.Cap);
    }

    [Fact]
    public void Cpu_the_throughput_model_chose_to_use_is_no_pressure()
    {
        // One core and a 1 Gbit/s link: zstd 1 is CPU-bound (0.5 ms per message compressing, 0.34 ms on the wire),
        // and still twice as fast as raw (1.2 ms on the wire). The core at 97% is the plan, not pressure.
        var env = new FakeEnvironment { ProcessorCount = 1, Utilization = 0.97 };
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_000_000_000, goal: CompressionGoal.Throughput, exploration: 0, codecs: [CompressionCodec.Zstd]);
        var world = new PolicyWorld(policy, env) { LinkBytesPerSecond = 125e6 };
        List<CompressionChoice> choices = world.Send(Message, 20_000);
        Assert.True(Seconds(env) - 1000 > 10, $"{Seconds(env) - 1000:F1} s simulated");
        Assert.Equal(CpuMonitor.Uncapped, policy.Cpu.Cap);
        Assert.DoesNotContain(choices, c => c.Reason == CompressionDecisionReason.CpuGuard);
        Assert.Equal("zstd-1", PolicyWorld.Name(choices[^1]));

        // The latency model plans no load: the same world there is pressure, and the guard caps the ladder.
        var latencyEnv = new FakeEnvironment { ProcessorCount = 1, Utilization = 0.97 };
        AdaptivePolicy latency = PolicyWorld.Adaptive(latencyEnv, 1_000_000_000, goal: CompressionGoal.Latency, exploration: 0, codecs: [CompressionCodec.Zstd]);
        new PolicyWorld(latency, latencyEnv) { LinkBytesPerSecond = 125e6 }.Send(Message, 20_000);
        Assert.NotEqual(CpuMonitor.Uncapped, latency.Cpu.Cap);
    }

    [Theory]
    [InlineData(0.03)]
    [InlineData(0.10)]
    public void A_share_of_messages_explores_at_the_configured_rate(double rate)
    {
        var env = new FakeEnvironment();
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, exploration: rate), env) { LinkBytesPerSecond = 12.5e6 };
        const int count = 5_000;
        List<CompressionChoice> choices = world.Send(Message, count);
        double seconds = Seconds(env) - 1000;
        int explored = choices.Count(c => c.Reason == CompressionDecisionReason.Exploration);
        // The random share (binomial, ±4σ) plus at most two minimum-rate tries per 5 s.
        double sigma = Math.Sqrt(count * rate * (1 - rate));
        Assert.InRange(explored, (count * rate) - (4 * sigma), (count * rate) + (4 * sigma) + (2 * Math.Ceiling(seconds / 5)));
        Assert.All(choices.Where(c => c.Reason == CompressionDecisionReason.Exploration), c => Assert.NotEqual("zstd-1", PolicyWorld.Name(c)));
    }

    [Fact]
    public void Without_random_exploration_each_neighbour_is_still_tried_every_five_seconds()
    {
        var env = new FakeEnvironment();
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 100_000_000, exploration: 0), env) { LinkBytesPerSecond = 12.5e6 };
        var explored = new List<(double Seconds, string Choice)>();
        for (int i = 0; i < 60; i++)
        {
            CompressionChoice choice = world.Send(Message).Choice;
            if (choice.Reason == CompressionDecisionReason.Exploration)
            {
                explored.Add((Seconds(env), PolicyWorld.Name(choice)));
            }

            env.Advance(1);
        }

        foreach (string neighbour in new[] { "lz4-0", "zstd-3" })
        {
            // Each try is a pair: the neighbour for two messages in a row (one a second here), the second one timed.
            double[] times = [.. explored.Where(e => e.Choice == neighbour).Select(e => e.Seconds)];
            double[][] pairs = [.. times.Chunk(2)];
            Assert.True(pairs.Length >= 5, $"{neighbour}: {pairs.Length} tries");
            Assert.All(pairs.Where(p => p.Length == 2), p => Assert.InRange(p[1] - p[0], 1, 1.1));
            Assert.All(pairs.Zip(pairs.Skip(1)), pair => Assert.InRange(pair.Second[0] - pair.First[0], 4.9, 11));
        }
    }

    [Fact]
    public void Raw_is_explored_one_message_at_a_time_and_a_codec_in_pairs()
    {
        // Raw has no codec time to warm up and its ratio is known: its second message would teach nothing.
        var env = new FakeEnvironment();
        var world = new PolicyWorld(PolicyWorld.Adaptive(env, 1_000_000_000, exploration: 0), env) { LinkBytesPerSecond = 125e6 };
        var choices = new List<CompressionChoice>();
        for (int i = 0; i < 60; i++)
        {
            choices.Add(world.Send(Message).Choice);
            env.Advance(1);
        }

        Assert.Equal("lz4-0", PolicyWorld.Name(choices.Last(c => c.Reason == CompressionDecisionReason.Model)));
        var raw = choices.Select((c, i) => (c, i)).Where(x => x.c.Reason == CompressionDecisionReason.Exploration && x.c.Codec is null).Select(x => x.i).ToList();
        Assert.True(raw.Count >= 5, $"raw tried {raw.Count} times");
        Assert.All(raw, i => Assert.Equal(CompressionDecisionReason.Model, choices[i + 1].Reason));
        var zstd = choices.Where(c => c.Reason == CompressionDecisionReason.Exploration && c.Codec is not null).ToList();
        Assert.Equal(2 * raw.Count, zstd.Count, 2.0);
        Assert.All(zstd, c => Assert.Equal("zstd-1", PolicyWorld.Name(c)));
    }

    [Theory]
    [InlineData(100_000_000, 1_500_000)]
    [InlineData(1_500_000, 100_000_000)]
    [InlineData(100_000_000, 10_000_000_000)]
    [InlineData(10_000_000_000, 100_000_000)]
    public void After_the_link_rate_changes_the_choice_recovers_within_a_bounded_number_of_messages(long before, long after)
    {
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_000_000_000, measureLink: true);
        var world = new PolicyWorld(policy, env) { LinkBytesPerSecond = before / 8.0 };
        world.Send(Message, 400);
        string settled = AdaptivePolicyTests.Oracle(policy, before / 8.0, CompressionGoal.Latency);
        Assert.Equal(settled, PolicyWorld.Name(policy.Choose(world.Action, world.Sample, Message)));

        world.LinkBytesPerSecond = after / 8.0;
        string expected = AdaptivePolicyTests.Oracle(policy, after / 8.0, CompressionGoal.Latency);
        List<CompressionChoice> choices = world.Send(Message, 200);
        int recovered = RecoveredAfter(choices, expected);
        output.WriteLine($"{before / 1e6} → {after / 1e6} Mbit/s: {settled} → {expected} after {recovered} messages; link estimate {policy.Link.Estimate(env.Timestamp, out string source) * 8 / 1e6:F1} Mbit/s ({source})");
        Assert.True(recovered <= 40, $"recovered after {recovered} messages");
    }

    /// <summary>Messages until the model's choices are all <paramref name="expected"/> from there on.</summary>
    private static int RecoveredAfter(List<CompressionChoice> choices, string expected)
    {
        int last = choices.FindLastIndex(c => c.Reason != CompressionDecisionReason.Exploration && PolicyWorld.Name(c) != expected);
        return last + 1;
    }

    private static double Seconds(FakeEnvironment env) => env.Timestamp / (double)System.Diagnostics.Stopwatch.Frequency;
}
