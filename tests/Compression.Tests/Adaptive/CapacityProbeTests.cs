using System.Diagnostics;
using Surrogate.Compression.Policies;
using Xunit.Abstractions;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The capacity probe, on an injected clock: where a busy service's own choice sets the rate its sends show, half a
/// second of raw finds out whether the link carries more; where the link is full, probes find nothing and back off.
/// </summary>
public sealed class CapacityProbeTests(ITestOutputHelper output)
{
    private static readonly long Second = Stopwatch.Frequency;

    [Fact]
    public void A_probe_that_finds_the_link_carrying_more_holds_that_rate_for_30_s()
    {
        var link = new LinkEstimator(1e6, measure: true, now: 0);
        long t = Send(link, 0, 2 * Second, 10e6);
        Assert.Equal("send_rate", Source(link, t));
        Assert.True(link.TryStartProbe(t));
        Assert.True(link.Probing);
        t = Send(link, t, (Second / 2) + 1, 40e6); // the probe's raw replies leave four times as often
        Assert.False(link.Probing);
        Assert.InRange(link.Estimate(t, out string source), 39e6, 41e6);
        Assert.Equal("probe", source);
        Assert.InRange(link.Estimate(t + (29 * Second), out _), 39e6, 41e6);
        Assert.Equal("prior", Source(link, t + (31 * Second)));
    }

    [Fact]
    public void A_probe_that_finds_nothing_more_waits_twice_as_long_up_to_four_minutes()
    {
        var link = new LinkEstimator(1e6, measure: true, now: 0);
        long t = Send(link, 0, 2 * Second, 10e6);
        Assert.True(link.TryStartProbe(t));
        foreach (int wait in new[] { 60, 120, 240, 240 })
        {
            t = Send(link, t, (Second / 2) + 1, 10e6); // raw goes no faster
            Assert.False(link.Probing);
            Assert.Equal("send_rate", Source(link, t));
            t = Send(link, t, (wait - 2) * Second, 10e6);
            Assert.False(link.TryStartProbe(t), $"a probe {wait - 2} s after one that found nothing");
            t = Send(link, t, 2 * Second, 10e6);
            Assert.True(link.TryStartProbe(t), $"no probe {wait} s after one that found nothing");
        }
    }

    [Fact]
    public void A_probe_whose_raw_messages_fill_the_link_holds_nothing_however_many_bytes_it_sent()
    {
        // 100 KB compressed replies at 10 MB/s (100 a second); raw they are 400 KB and the link takes 20 MB/s of them
        // (50 a second): more bytes, fewer replies.
        var link = new LinkEstimator(1e6, measure: true, now: 0);
        long t = Send(link, 0, 2 * Second, 10e6);
        Assert.True(link.TryStartProbe(t));
        t = Send(link, t, (Second / 2) + 1, 20e6, size: 400_000);
        Assert.False(link.Probing);
        Assert.NotEqual("probe", Source(link, t));
        t = Send(link, t, 40 * Second, 10e6);
        Assert.False(link.TryStartProbe(t), "a probe 40 s after one that found raw slower");
    }

    [Fact]
    public void A_probe_that_traffic_left_idle_judges_nothing()
    {
        var link = new LinkEstimator(1e6, measure: true, now: 0);
        long t = Send(link, 0, 2 * Second, 10e6);
        Assert.True(link.TryStartProbe(t));
        t += 10 * Second;
        link.OnSent(50_000, t); // the next message, 10 s later, ends the probe: 5 KB/s over it, which is no finding
        Assert.False(link.Probing);
        t = Send(link, t + Second, 2 * Second, 10e6);
        Assert.False(link.TryStartProbe(t + (26 * Second)), "a probe before the interval");
        t = Send(link, t + (26 * Second), 2 * Second, 10e6);
        Assert.True(link.TryStartProbe(t), "the interval doubled as after a probe that found nothing");
    }

    [Fact]
    public void No_probe_while_the_estimate_is_not_of_the_sends_making_or_the_sends_are_not_busy()
    {
        Assert.False(new LinkEstimator(1e6, measure: true, now: 0).TryStartProbe(Second), "the configured rate");

        var blocked = new LinkEstimator(1e6, measure: true, now: 0);
        long t = Send(blocked, 0, 2 * Second, 10e6);
        blocked.OnBlockedWrite(64 * 1024, Second / 500, t); // 32 MB/s, measured where the link pushed back
        Assert.Equal("blocked_writes", Source(blocked, t));
        Assert.False(blocked.TryStartProbe(t), "the link's own pace");

        var idle = new LinkEstimator(1e6, measure: true, now: 0);
        t = Send(idle, 0, 2 * Second, 10e6);
        idle.OnRoundTrip(Second / 100, 100_000, 100_000, t); // a round trip's bound keeps an estimate of the sends' making
        Assert.False(idle.TryStartProbe(t + (5 * Second)), "after 5 s without a send window");

        var known = new LinkEstimator(1e6, measure: false, now: 0);
        t = Send(known, 0, 2 * Second, 10e6);
        Assert.False(known.TryStartProbe(t), "a link whose rate is configured");
    }

    [Fact]
    public void A_change_of_link_forgets_what_a_probe_found()
    {
        var probe = new CapacityProbe(Second);
        probe.Start(0, messagesPerSecond: 5);
        for (int i = 0; i < 10; i++)
        {
            probe.Add(2_000_000, Second);
        }

        probe.Finish(Second);
        Assert.Equal(20e6, probe.Held(Second), 1);
        probe.Forget();
        Assert.True(double.IsNaN(probe.Held(Second)));
    }

    [Fact]
    public void A_service_bound_by_its_cpu_on_a_fast_link_finds_raw_faster_than_its_compressed_sends_suggest()
    {
        // 200 µs of work per 150 KB reply on one core, LZ4 (0.5) 300 µs more: raw 5,000 replies/s (750 MB/s on a
        // 50 GB/s link), LZ4 2,000. At LZ4 the sends show 150 MB/s, at which raw would take 1 ms a reply against LZ4's
        // 0.5 ms. Without round trips (the writing encoder's own clock, as over HTTP) nothing else says the link is
        // faster, and without a probe the policy keeps compressing at 0.4 of raw's throughput.
        ClosedLoopService.Result service = new ClosedLoopService
        {
            Clients = 16,
            LinkBitsPerSecond = 400e9,
            Length = 150_000,
            WorkSeconds = 200e-6,
            Cores = 1,
            Utilization = 0.7,
            Paired = false,
            Behaviour = CpuBound,
        }.Run();
        output.WriteLine(service.Summary());
        Assert.True(service.ProbeMessages > 0, "no probe");
        Assert.NotEmpty(service.ModelChoices);
        Assert.True(service.ModelChoices.Count(c => c == "raw") >= 0.9 * service.ModelChoices.Count(), service.Summary());
    }

    [Fact]
    public void A_service_whose_link_is_full_probes_once_a_minute_at_most_and_keeps_compressing()
    {
        // Four clients keep 100 Mbit/s full with 150 KB replies (12 ms each raw: probes are allowed) while the CPU is
        // loaded: a probe finds the link no faster, and the next one waits 60 s, after this run.
        ClosedLoopService.Result service = new ClosedLoopService
        {
            LinkBitsPerSecond = 100e6,
            Length = 150_000,
            Cores = 2,
            Utilization = 0.7,
        }.Run();
        output.WriteLine(service.Summary());
        Assert.InRange(service.ProbeMessages, 1, 100);
        Assert.DoesNotContain(service.LateChoices, c => c.Reason == CompressionDecisionReason.LinkProbe);
        Assert.NotEmpty(service.ModelChoices);
        Assert.All(service.ModelChoices, c => Assert.StartsWith("zstd-", c, StringComparison.Ordinal));
    }

    /// <summary>Sends messages of <paramref name="size"/> at <paramref name="bytesPerSecond"/> from <paramref name="from"/> for <paramref name="ticks"/>.</summary>
    private static long Send(LinkEstimator link, long from, long ticks, double bytesPerSecond, int size = 100_000)
    {
        long step = (long)(size / bytesPerSecond * Second);
        long t = from;
        for (; t <= from + ticks; t += step)
        {
            link.OnSent(size, t);
        }

        return t;
    }

    private static string Source(LinkEstimator link, long now)
    {
        link.Estimate(now, out string source);
        return source;
    }

    /// <summary>A reply LZ4 halves at 500 MB/s; the rest compress more, slower.</summary>
    private static CodecBehaviour CpuBound(CompressionCodec codec, int level) => (codec, level) switch
    {
        (CompressionCodec.Lz4, _) => new(0.5, 1 / 500e6),
        (CompressionCodec.Zstd, 1) => new(0.4, 1 / 200e6),
        (CompressionCodec.Zstd, _) => new(0.35, 1 / 50e6),
        _ => new(0.4, 1 / 30e6),
    };
}
