using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The CPU guard alone, sample by sample on an injected clock: what lifts its cap once it stepped down. A service
/// pinned to one core with a few callers keeps a short thread-pool queue and a smoothed CPU figure that wanders around
/// the low watermark; relief must still come there, and must not come where the CPU mostly stays between the watermarks.
/// </summary>
public sealed class CpuGuardTests
{
    private const int Top = 5;

    [Fact]
    public void A_short_queue_on_one_core_does_not_keep_the_cap_at_raw()
    {
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        List<double> steps = Run(env, guard, seconds: 20, i => (0.5, i % 2 == 0 ? 0 : 2));
        Assert.True(steps.Count >= 3, $"cap changes: {string.Join(", ", steps)}");
        Assert.InRange(steps[0], 5, 6.5);
    }

    [Fact]
    public void A_queue_at_the_pressure_level_holds_the_cap()
    {
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        Assert.Empty(Run(env, guard, seconds: 20, _ => (0.5, 4)));
        Assert.Equal(0, guard.Cap);
    }

    [Fact]
    public void A_cpu_spike_now_and_then_does_not_restart_relief()
    {
        // Every fourth interval busy: the smoothed figure rises to about 0.67 there (between the watermarks) and is
        // back below the low one at the next sample.
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        List<double> steps = Run(env, guard, seconds: 20, i => (i % 4 == 3 ? 0.9 : 0.4, 0));
        Assert.True(steps.Count >= 3, $"cap changes: {string.Join(", ", steps)}");
        Assert.InRange(steps[0], 5, 6.5);
    }

    [Fact]
    public void Cpu_mostly_between_the_watermarks_holds_the_cap()
    {
        // One quiet interval in five: the smoothed figure dips to the low watermark once, then climbs back above it.
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        Assert.Empty(Run(env, guard, seconds: 30, i => (i % 5 == 4 ? 0.3 : 0.75, 0)));
        Assert.Equal(0, guard.Cap);
    }

    [Fact]
    public void A_cap_that_holds_the_model_back_lifts_while_the_cpu_is_below_the_high_watermark()
    {
        // The same CPU as above, but the model prefers a step above the cap: 1 Gbit/s medium 16 KB stayed raw by the
        // cap on a full link at 60% CPU where LZ4 ran 1.6 times as fast.
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        List<double> steps = Run(env, guard, seconds: 30, i => (i % 5 == 4 ? 0.3 : 0.75, 0), heldBack: true);
        Assert.True(steps.Count >= 3, $"cap changes: {string.Join(", ", steps)}");
        Assert.InRange(steps[0], 5, 6.5);
    }

    [Fact]
    public void A_cap_that_holds_the_model_back_stays_at_the_high_watermark()
    {
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        Assert.Empty(Run(env, guard, seconds: 30, _ => (0.9, 0), heldBack: true));
        Assert.Equal(0, guard.Cap);
    }

    [Fact]
    public void Pressure_in_the_window_restarts_relief()
    {
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        // 3.75 s of relief, three busy intervals (the smoothed figure reaches pressure, 0.94, at 5.25 s), then relief
        // again: the step up waits 5 s from there. (At 0.5, above the idle level, where a step a second would come.)
        List<double> steps = Run(env, guard, seconds: 14, i => (i is >= 18 and <= 20 ? 1.0 : 0.5, 0));
        Assert.NotEmpty(steps);
        Assert.True(steps[0] >= 10.25, $"first step up at {steps[0]:F2} s");
    }

    [Fact]
    public void An_idle_cpu_lifts_a_cap_set_by_earlier_load_a_step_a_second()
    {
        // A cap left at raw by an earlier cell's load, then a cell at 30% CPU: 1 Gbit/s complex 150 KB stayed raw by
        // the cap for its whole 4 s run where LZ4 served more, at one step per 5 s.
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        List<double> steps = Run(env, guard, seconds: 10, _ => (0.3, 0));
        Assert.True(steps.Count == Top, $"cap changes: {string.Join(", ", steps)}");
        Assert.Equal(CpuMonitor.Uncapped, guard.Cap);
        Assert.InRange(steps[0], 1, 2.25);
        for (int i = 1; i < steps.Count; i++)
        {
            Assert.InRange(steps[i] - steps[i - 1], 0.99, 1.01);
        }
    }

    [Fact]
    public void A_busy_sample_restarts_the_idle_second()
    {
        // Idle but for one interval in three at the low watermark's side of it: the smoothed figure leaves the idle
        // level (half the high watermark) each time, so only the 5 s relief window lifts the cap.
        (FakeEnvironment env, CpuMonitor guard) = CappedAtRaw();
        List<double> steps = Run(env, guard, seconds: 12, i => (i % 3 == 2 ? 0.7 : 0.3, 0));
        Assert.NotEmpty(steps);
        Assert.InRange(steps[0], 5, 6.5);
    }

    /// <summary>One core, the model chose the top step planning 30% of it, and the core at 95%: the guard steps to raw.</summary>
    private static (FakeEnvironment Env, CpuMonitor Guard) CappedAtRaw()
    {
        var env = new FakeEnvironment { ProcessorCount = 1 };
        var guard = new CpuMonitor(env, high: 0.85, low: 0.6, top: Top);
        Run(env, guard, seconds: 20, _ => (0.95, 0));
        Assert.Equal(0, guard.Cap);
        return (env, guard);
    }

    /// <summary>
    /// Runs the guard for <paramref name="seconds"/> in sample intervals, the i-th with the CPU use and queue
    /// <paramref name="load"/> gives, the model's choice held back by the cap or not; the times (from the start) at
    /// which the cap changed.
    /// </summary>
    private static List<double> Run(FakeEnvironment env, CpuMonitor guard, double seconds, Func<int, (double Cpu, long Queue)> load, bool heldBack = false)
    {
        var changes = new List<double>();
        double interval = CpuMonitor.SampleInterval.TotalSeconds;
        int cap = guard.Cap;
        for (int i = 0; i * interval < seconds; i++)
        {
            (env.Utilization, env.PendingWorkItems) = load(i);
            guard.NoteChosen(Top, 0.3, heldBack);
            env.Advance(interval);
            guard.Sample(env.Timestamp);
            if (guard.Cap != cap)
            {
                cap = guard.Cap;
                changes.Add((i + 1) * interval);
            }
        }

        return changes;
    }
}
