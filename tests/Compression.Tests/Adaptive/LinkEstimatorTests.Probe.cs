using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>The link estimate while a busy CPU, not the link, may bound what is sent: <c>cpu_bound</c> and its probe.</summary>
public sealed partial class LinkEstimatorTests
{
    [Fact]
    public void Without_a_capacity_a_cpu_bound_process_assumes_the_link_carries_its_messages_raw()
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 3, 25_000, length: 100_000, cpuBusy: true, gapTicks: Second / 50);
        Assert.InRange(link.Estimate(t, out string source, cpuBusy: true), 9.9e6, 10.1e6);
        Assert.Equal("cpu_bound", source);
        Assert.InRange(link.Estimate(t, out source, cpuBusy: false), 2.4e6, 2.6e6);
        Assert.Equal("send_rate", source);
    }

    [Fact]
    public void A_probe_of_the_cheapest_choice_lifts_the_raw_rate_a_cpu_bound_process_assumes_for_a_minute()
    {
        // zstd bound by the CPU: 100 replies a second of 100 KB (25 KB on the wire), 10 MB/s raw.
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 3, 25_000, length: 100_000, cpuBusy: true);
        Assert.InRange(link.Estimate(t, out string source, cpuBusy: true), 9.9e6, 10.1e6);
        Assert.Equal("cpu_bound", source);
        Assert.Equal(-1, link.Probe(t, -1));
        Assert.Equal(1, link.Probe(t, 1));

        // LZ4 while the probe holds: the same CPU sends twice the replies, 20 MB/s raw. It ends with the second window.
        (t, int sent) = SendWhileProbing(link, t, perSecond: 200);
        Assert.InRange(sent, 200, 400);
        t = Send(link, t, 5, 25_000, length: 100_000, cpuBusy: true);
        Assert.InRange(link.Estimate(t, out source, cpuBusy: true), 19.8e6, 20.2e6);
        Assert.Equal("cpu_bound", source);
        Assert.Equal(-1, link.Probe(t, 1)); // less than 10 s after the last one started
        Assert.InRange(link.Estimate(t, out _, cpuBusy: false), 2.4e6, 2.6e6);

        t = Send(link, t, 60, 25_000, length: 100_000, cpuBusy: true);
        Assert.InRange(link.Estimate(t, out source, cpuBusy: true), 9.9e6, 10.1e6);
        Assert.Equal("cpu_bound", source);
        Assert.Equal(1, link.Probe(t, 1));
    }

    /// <summary>
    /// zstd bound by the CPU, it seems: 100 replies a second of 100 KB, 25 KB on the wire (2.5 MB/s), 10 MB/s raw. A
    /// probe of LZ4 sends 40 KB replies; at <paramref name="probeReplies"/> a second it tells the link's capacity
    /// (fewer replies than zstd, with bytes a second at least 80% of zstd's: bytes held it back) or not. A capacity
    /// outlives the minute a probe's raw rate is held for where zstd keeps filling the link, and not where it does not.
    /// </summary>
    [Theory]
    [InlineData(60, 2.5e6, "send_rate", 2.5e6, "send_rate")] // 2.4 MB/s: the link is full
    [InlineData(85, 3.4e6, "send_rate", 10e6, "cpu_bound")] // 3.4 MB/s, more bytes than zstd sent: the link held LZ4 back, not the CPU
    [InlineData(40, 10e6, "cpu_bound", 10e6, "cpu_bound")] // 1.6 MB/s: fewer replies and fewer bytes than zstd, a stall
    [InlineData(120, 12e6, "cpu_bound", 10e6, "cpu_bound")] // more replies: the CPU bound zstd; the probe lifts the estimate
    public void A_probe_that_sends_fewer_messages_on_a_link_as_full_measures_its_capacity(
        int probeReplies, double estimate, string source, double estimate70, string source70)
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 3, 25_000, length: 100_000, cpuBusy: true);
        Assert.Equal(1, link.Probe(t, 1));
        (t, _) = SendWhileProbing(link, t, probeReplies);

        // zstd again, which fills the link it measured (within the scatter of a window) and so keeps it current.
        t = Send(link, t, 5, 25_000, length: 100_000, cpuBusy: true);
        AssertBusyEstimate(link, t, estimate, source);
        t = Send(link, t, 65, 25_000, length: 100_000, cpuBusy: true);
        AssertBusyEstimate(link, t, estimate70, source70);
    }

    [Fact]
    public void A_probe_starts_only_after_a_full_cpu_bound_window_and_ends_when_the_estimate_leaves_cpu_bound()
    {
        // A slow link: 20 replies a second of 100 KB (25 KB on the wire) with the CPU busy is cpu_bound, yet too few
        // messages a window to say the CPU held them back.
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = 0;
        for (; t < 3 * Second; t += Second / 20)
        {
            link.OnSent(25_000, t, 100_000, cpuBusy: true);
        }

        Assert.InRange(link.Estimate(t, out string source, cpuBusy: true), 1.9e6, 2.1e6);
        Assert.Equal("cpu_bound", source);
        Assert.Equal(-1, link.Probe(t, 1));

        // A window of 100 replies with the CPU sampled calm: no probe either.
        t = Send(link, t, 1, 25_000, length: 100_000, cpuBusy: false);
        t = Send(link, t, 1, 25_000, length: 100_000, cpuBusy: false);
        Assert.Equal(-1, link.Probe(t, 1));

        // Full windows with the CPU busy start one; an estimate that is no longer cpu_bound ends it at once.
        t = Send(link, t, 2, 25_000, length: 100_000, cpuBusy: true);
        Assert.Equal(1, link.Probe(t, 1));
        Assert.Equal(1, link.Probe(t + 1, 1));
        Assert.Equal(-1, link.Probe(t + 2, -1));
        Assert.Equal(-1, link.Probe(t + 3, 1)); // less than 10 s after it started
    }

    /// <summary>
    /// LZ4 as the model's choice at a busy CPU: 500 replies a second of 100 KB, 20 KB on the wire (10 MB/s), 50 MB/s
    /// raw, which is the <c>cpu_bound</c> estimate. An upward probe of zstd 1 sends 12 KB replies; at
    /// <paramref name="probeReplies"/> a second it shows the link full (a ninth more replies or more, though each
    /// costs more CPU: LZ4's bytes held it back, and the link carries 10 MB/s) or the CPU bound (no capacity; the next
    /// upward probe waits twice as long, while a downward one may start after the usual 10 s).
    /// </summary>
    [Theory]
    [InlineData(830, true)]  // 10 MB/s: the link is full at both steps
    [InlineData(600, true)]  // a fifth more replies at 7.2 MB/s: the CPU bounds zstd, the link LZ4 (1 Gbit/s simple 150 KB)
    [InlineData(530, false)] // 6% more replies: within a window's scatter
    [InlineData(400, false)] // fewer replies: the CPU bound LZ4
    public void An_upward_probe_that_sends_more_messages_on_a_link_as_full_measures_its_capacity(int probeReplies, bool full)
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = SendAt(link, 0, 3 * Second, perSecond: 500, wire: 20_000);
        AssertBusyEstimate(link, t, 50e6, "cpu_bound");
        Assert.True(link.UpwardProbeDue(t));
        Assert.Equal(2, link.Probe(t, 2, upward: true));
        long started = t;
        for (; link.Probe(t, 2, upward: true) == 2; t += Second / probeReplies)
        {
            link.OnSent(12_000, t, 100_000, cpuBusy: true);
            Assert.True(t - started < 3 * Second, "the probe never ended");
        }

        Assert.InRange(t - started, Second, 2 * Second);
        t = SendAt(link, t, Second, perSecond: 500, wire: 20_000);
        Assert.Equal(full, link.Estimate(t, out string source, out bool capacity, cpuBusy: true, out _) is > 9.5e6 and < 10.5e6 && capacity);
        Assert.Equal(full ? "send_rate" : "cpu_bound", source);
        if (full)
        {
            return;
        }

        // Backed off: 10 s after the failed probe started a downward one starts, an upward one only after 20 s.
        t = SendAt(link, t, started + (10 * Second) - t, perSecond: 500, wire: 20_000);
        Assert.False(link.UpwardProbeDue(t));
        Assert.Equal(-1, link.Probe(t, 2, upward: true));
        Assert.Equal(1, link.Probe(t, 1));
        t = SendAt(link, t, started + (21 * Second) - t, perSecond: 500, wire: 20_000);
        Assert.Equal(-1, link.ProbeHeld);
        Assert.True(link.UpwardProbeDue(t));
    }

    /// <summary>Replies of 100 KB, <paramref name="wire"/> bytes on the wire, <paramref name="perSecond"/> a second with the CPU busy for <paramref name="ticks"/>; the time after.</summary>
    private static long SendAt(LinkEstimator link, long from, long ticks, int perSecond, long wire)
    {
        long t = from;
        for (; t < from + ticks; t += Second / perSecond)
        {
            link.OnSent(wire, t, 100_000, cpuBusy: true);
        }

        return t;
    }

    /// <summary>
    /// LZ4 while a probe holds: 100 KB replies, 40 KB on the wire, <paramref name="perSecond"/> a second with the CPU
    /// busy, until the probe ends; the time after and the replies sent.
    /// </summary>
    private static (long Time, int Sent) SendWhileProbing(LinkEstimator link, long from, int perSecond)
    {
        long t = from;
        int sent = 0;
        for (; link.Probe(t, 1) == 1; t += Second / perSecond, sent++)
        {
            link.OnSent(40_000, t, 100_000, cpuBusy: true);
            Assert.True(sent < 1_000, "the probe never ended");
        }

        return (t, sent);
    }
}
