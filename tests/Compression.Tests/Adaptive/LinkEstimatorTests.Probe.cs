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
        Assert.False(link.Probe(t, start: false));
        Assert.True(link.Probe(t, start: true));

        // LZ4 while the probe holds: the same CPU sends twice the replies, 20 MB/s raw. It ends with the second window.
        (t, int sent) = SendWhileProbing(link, t, perSecond: 200);
        Assert.InRange(sent, 200, 400);
        t = Send(link, t, 5, 25_000, length: 100_000, cpuBusy: true);
        Assert.InRange(link.Estimate(t, out source, cpuBusy: true), 19.8e6, 20.2e6);
        Assert.Equal("cpu_bound", source);
        Assert.False(link.Probe(t, start: true)); // less than 10 s after the last one started
        Assert.InRange(link.Estimate(t, out _, cpuBusy: false), 2.4e6, 2.6e6);

        t = Send(link, t, 60, 25_000, length: 100_000, cpuBusy: true);
        Assert.InRange(link.Estimate(t, out source, cpuBusy: true), 9.9e6, 10.1e6);
        Assert.Equal("cpu_bound", source);
        Assert.True(link.Probe(t, start: true));
    }

    /// <summary>
    /// zstd bound by the CPU, it seems: 100 replies a second of 100 KB, 25 KB on the wire (2.5 MB/s), 10 MB/s raw. A
    /// probe of LZ4 sends 40 KB replies; at <paramref name="probeReplies"/> a second it tells the link's capacity
    /// (fewer replies than zstd, with zstd's bytes a second at least 80% of its own: both filled the link) or not.
    /// A capacity outlives the minute a probe's raw rate is held for, as zstd keeps filling the link.
    /// </summary>
    [Theory]
    [InlineData(60, 2.5e6, "send_rate", 2.5e6, "send_rate")] // 2.4 MB/s: the link is full
    [InlineData(85, 10e6, "cpu_bound", 10e6, "cpu_bound")] // 3.4 MB/s: more bytes than zstd sent, which did not fill the link
    [InlineData(120, 12e6, "cpu_bound", 10e6, "cpu_bound")] // more replies: the CPU bound zstd; the probe lifts the estimate
    public void A_probe_that_sends_fewer_messages_on_a_link_as_full_measures_its_capacity(
        int probeReplies, double estimate, string source, double estimate70, string source70)
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 3, 25_000, length: 100_000, cpuBusy: true);
        Assert.True(link.Probe(t, start: true));
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
        Assert.False(link.Probe(t, start: true));

        // A window of 100 replies with the CPU sampled calm: no probe either.
        t = Send(link, t, 1, 25_000, length: 100_000, cpuBusy: false);
        t = Send(link, t, 1, 25_000, length: 100_000, cpuBusy: false);
        Assert.False(link.Probe(t, start: true));

        // Full windows with the CPU busy start one; an estimate that is no longer cpu_bound ends it at once.
        t = Send(link, t, 2, 25_000, length: 100_000, cpuBusy: true);
        Assert.True(link.Probe(t, start: true));
        Assert.True(link.Probe(t + 1, start: true));
        Assert.False(link.Probe(t + 2, start: false));
        Assert.False(link.Probe(t + 3, start: true)); // less than 10 s after it started
    }

    /// <summary>
    /// LZ4 while a probe holds: 100 KB replies, 40 KB on the wire, <paramref name="perSecond"/> a second with the CPU
    /// busy, until the probe ends; the time after and the replies sent.
    /// </summary>
    private static (long Time, int Sent) SendWhileProbing(LinkEstimator link, long from, int perSecond)
    {
        long t = from;
        int sent = 0;
        for (; link.Probe(t, start: true); t += Second / perSecond, sent++)
        {
            link.OnSent(40_000, t, 100_000, cpuBusy: true);
            Assert.True(sent < 1_000, "the probe never ended");
        }

        return (t, sent);
    }
}
