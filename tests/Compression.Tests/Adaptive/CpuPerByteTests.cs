using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The CPU the process spends per byte outside compression, sample by sample on an injected clock: work that is not
/// the encoder's (another endpoint, tiering up, a collection) in a few samples must not make every choice look
/// CPU-bound, and a lasting change must still show.
/// </summary>
public sealed class CpuPerByteTests
{
    // 1 MB of messages per 250 ms sample: on two cores at 20%, 0.1 s of CPU, 100 ns per byte.
    private const long BytesPerSample = 1_000_000;

    [Fact]
    public void Is_not_measured_before_a_sample_holds_64_KiB()
    {
        (FakeEnvironment env, CpuMonitor cpu) = Monitor();
        Interval(env, cpu, utilization: 0.2, bytes: 60 * 1024);
        Assert.True(double.IsNaN(cpu.OwnCpuSecondsPerByte));
        Interval(env, cpu, utilization: 0.2, bytes: BytesPerSample);
        Assert.Equal(PerByte(0.2), Ns(cpu), 3);
    }

    [Fact]
    public void Busy_samples_now_and_then_do_not_move_it()
    {
        (FakeEnvironment env, CpuMonitor cpu) = Monitor();
        var seen = new List<double>();
        for (int i = 0; i < 40; i++)
        {
            // Every fifth sample, the process did four times the encoder's work besides.
            Interval(env, cpu, utilization: i % 5 == 4 ? 0.8 : 0.2, bytes: BytesPerSample);
            seen.Add(Ns(cpu));
        }

        Assert.All(seen, value => Assert.Equal(PerByte(0.2), value, 3));
    }

    [Fact]
    public void A_lasting_rise_shows_within_eight_samples()
    {
        (FakeEnvironment env, CpuMonitor cpu) = Monitor();
        for (int i = 0; i < 10; i++)
        {
            Interval(env, cpu, utilization: 0.2, bytes: BytesPerSample);
        }

        var seen = new List<double>();
        for (int i = 0; i < 8; i++)
        {
            Interval(env, cpu, utilization: 0.5, bytes: BytesPerSample);
            seen.Add(Ns(cpu));
        }

        Assert.Equal(PerByte(0.2), seen[5], 3);
        Assert.Equal(PerByte(0.5), seen[6], 3);
        Assert.Equal(PerByte(0.5), seen[7], 3);
    }

    [Fact]
    public void A_fall_shows_within_two_samples()
    {
        (FakeEnvironment env, CpuMonitor cpu) = Monitor();
        for (int i = 0; i < 10; i++)
        {
            Interval(env, cpu, utilization: 0.5, bytes: BytesPerSample);
        }

        Interval(env, cpu, utilization: 0.2, bytes: BytesPerSample);
        Assert.Equal(PerByte(0.5), Ns(cpu), 3);
        Interval(env, cpu, utilization: 0.2, bytes: BytesPerSample);
        Assert.Equal(PerByte(0.2), Ns(cpu), 3);
    }

    [Fact]
    public void Compression_time_is_not_counted()
    {
        (FakeEnvironment env, CpuMonitor cpu) = Monitor();
        env.Utilization = 0.2;
        env.Advance(CpuMonitor.SampleInterval.TotalSeconds);
        // A quarter of the 0.1 s of CPU was compressing.
        cpu.AddWork(BytesPerSample, (long)(0.025 * System.Diagnostics.Stopwatch.Frequency), 0);
        cpu.Sample(env.Timestamp);
        Assert.Equal(PerByte(0.15), Ns(cpu), 3);
    }

    private static (FakeEnvironment Env, CpuMonitor Cpu) Monitor()
    {
        var env = new FakeEnvironment { ProcessorCount = 2 };
        return (env, new CpuMonitor(env, high: 0.85, low: 0.60, top: 5));
    }

    /// <summary>One sample interval in which <paramref name="bytes"/> went out, none of it compressed.</summary>
    private static void Interval(FakeEnvironment env, CpuMonitor cpu, double utilization, long bytes)
    {
        env.Utilization = utilization;
        env.Advance(CpuMonitor.SampleInterval.TotalSeconds);
        cpu.AddWork(bytes, 0, 0);
        cpu.Sample(env.Timestamp);
    }

    /// <summary>Nanoseconds per byte at <paramref name="utilization"/> of two cores over one interval.</summary>
    private static double PerByte(double utilization) => utilization * 2 * CpuMonitor.SampleInterval.TotalSeconds / BytesPerSample * 1e9;

    /// <summary>The monitor's figure in nanoseconds per byte (Assert.Equal rounds to 3 places).</summary>
    private static double Ns(CpuMonitor cpu) => cpu.OwnCpuSecondsPerByte * 1e9;
}
