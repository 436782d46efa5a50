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
        // 4.5 s of relief, three busy intervals (the smoothed figure reaches pressure, 0.91, at 5.25 s), then relief
        // again: the step up waits 5 s from there.
        List<double> steps = Run(env, guard, seconds: 14, i => (i is >= 18 and <= 20 ? 1.0 : 0.3, 0));
        Assert.NotEmpty(steps);
        Assert.True(steps[0] >= 10.25, $"first step up at {steps[0]:F2} s");
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
