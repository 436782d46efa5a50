using System.Diagnostics;
using System.Diagnostics.Metrics;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>The link estimate from synthetic round trips, blocked writes and send rates, on an injected clock.</summary>
[Collection(MeterCollection.Name)]
public sealed partial class LinkEstimatorTests
{
    private static readonly long Second = Stopwatch.Frequency;

    public static TheoryData<double> Rates() => new([1.5e6, 100e6, 1e9, 10e9]);

    [Theory]
    [MemberData(nameof(Rates))]
    public void Round_trips_whose_wire_bytes_vary_give_the_link_rate(double bitsPerSecond)
    {
        var link = new LinkEstimator(125e6, measure: true, now: 0);
        var clock = new Trips(link, bitsPerSecond / 8);
        for (int i = 0; i < 60; i++)
        {
            clock.Trip(150_000, wire: 150_000 * Ratios[i % Ratios.Length]);
        }

        double estimate = link.Estimate(clock.Now, out string source);
        Assert.Equal("round_trip", source);
        // The slow end of the fit's range, never above the truth by more than the noise, never far below it; on a
        // fast link the peer's work hides the link's, and the estimate only needs to say "faster than compression".
        Assert.InRange(estimate / (bitsPerSecond / 8), bitsPerSecond >= 1e9 ? 0.2 : 0.7, 1.05);
        Assert.True(estimate * 8 >= Math.Min(bitsPerSecond * 0.7, 2e9), $"{estimate * 8 / 1e6:F1} Mbit/s");
    }

    [Fact]
    public void Without_wire_bytes_that_vary_only_the_lower_bound_moves()
    {
        var link = new LinkEstimator(125e6, measure: true, now: 0);
        var clock = new Trips(link, 100e6 / 8);
        for (int i = 0; i < 60; i++)
        {
            clock.Trip(150_000, wire: 150_000); // raw only: the link's time per byte and the peer's cannot be told apart
        }

        double estimate = link.Estimate(clock.Now, out _);
        double bound = (150_000 + 200) / ((150_200 / (100e6 / 8)) + (150_000 * clock.PeerSecondsPerByte) + clock.FixedSeconds);
        Assert.InRange(estimate, bound * 0.95, 100e6 / 8);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Round_trips_on_a_shared_link_never_raise_the_estimate_above_it(int seed)
    {
        // The grid's 1 Gbit/s and 100 Mbit/s cells with 4 clients: a reply queues behind the other clients' replies, so
        // its round trip hardly depends on its own wire bytes, and after a change of link (or the first samples) a fit
        // of three unknowns from a few samples explains them exactly: no noise, any q, even below zero. That fit once
        // said 12.5 GB/s and the policy sent 150 KB raw at 0.13 of the best static choice.
        var link = new LinkEstimator(125e6, measure: true, now: 0);
        var random = new Random(seed);
        const double Rate = 100e6 / 8;
        long now = Second;
        double highest = 0;
        string highestSource = "";
        for (int i = -300; i < 2000; i++)
        {
            long wire = random.NextDouble() < 0.1 ? 36_100 : 153_900;
            // First a gigabit link to one client; then own bytes plus 0-3 other replies ahead on the link, plus the
            // peer's 0.5-1.5 ms.
            double seconds = i < 0 ? (wire / 125e6) + 0.0005
                : ((wire + (random.Next(4) * 153_900)) / Rate) + 0.0005 + (0.001 * random.NextDouble());
            long gap = (long)(seconds * Second);
            now += gap;
            link.OnRoundTrip(gap, wire + 200, 153_744 + 189, now);
            double estimate = link.Estimate(now, out string source);
            if (i >= 8 && estimate > highest)
            {
                (highest, highestSource) = (estimate, source);
            }

            now += Second / 2000;
        }

        Assert.True(highest <= Rate * 1.1, $"{highest * 8 / 1e6:F1} Mbit/s ({highestSource}) on a 100 Mbit/s link");
    }

    [Fact]
    public void A_change_of_link_is_noticed_within_three_round_trips_and_asks_for_exploration()
    {
        long changes = 0;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Name == CompressionTelemetry.LinkChangesInstrument)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref changes, value));
        listener.Start();
        var link = new LinkEstimator(125e6, measure: true, now: 0);
        var clock = new Trips(link, 100e6 / 8);
        for (int i = 0; i < 60; i++)
        {
            clock.Trip(150_000, wire: 150_000 * Ratios[i % Ratios.Length]);
        }

        Assert.False(link.TakeBurst());
        clock.BytesPerSecond = 1.5e6 / 8;
        int trips = 0;
        while (!link.TakeBurst())
        {
            clock.Trip(150_000, wire: 150_000 * Ratios[trips % Ratios.Length]);
            Assert.True(++trips <= 3, "no change noticed");
        }

        // Counted on the meter (other tests' estimators may add theirs: at least this one).
        Assert.True(Interlocked.Read(ref changes) >= 1, "the change of link was not counted");

        // Right after the change the newest round trip's bound already says how slow the link is.
        Assert.InRange(link.Estimate(clock.Now, out _), 0.5 * 1.5e6 / 8, 1.05 * 1.5e6 / 8);
        for (int i = 1; i < LinkEstimator.BurstLength; i++)
        {
            Assert.True(link.TakeBurst());
        }

        Assert.False(link.TakeBurst());
    }

    [Fact]
    public void Blocked_writes_count_for_five_seconds()
    {
        var link = new LinkEstimator(125e6, measure: true, now: 0);
        link.OnBlockedWrite(64 * 1024, Second / 100, now: Second); // 64 KiB in 10 ms
        Assert.Equal(64 * 1024 * 100, link.Estimate(Second, out string source), 1);
        Assert.Equal("blocked_writes", source);
        link.OnBlockedWrite(64 * 1024, Second / 100_000, now: Second); // 10 µs: the socket buffer took it, nothing learnt
        Assert.Equal(64 * 1024 * 100, link.Estimate(2 * Second, out _), 1);
        Assert.Equal(125e6, link.Estimate(7 * Second, out source));
        Assert.Equal("prior", source);
    }

    [Fact]
    public void The_bytes_sent_per_second_are_a_floor()
    {
        var link = new LinkEstimator(1e6, measure: true, now: 0);
        for (long t = 0; t <= 3 * Second; t += Second / 100)
        {
            link.OnSent(100_000, t); // 10 MB/s for 3 s
        }

        Assert.InRange(link.Estimate(3 * Second, out string source), 9.9e6, 10.1e6);
        Assert.Equal("send_rate", source);
        // What the link carried counts for a minute after the last pair of windows that carried it (at 3 s), idle or not.
        Assert.InRange(link.Estimate(62 * Second, out _), 9.9e6, 10.1e6);
        Assert.Equal(1e6, link.Estimate(64 * Second, out _));
    }

    /// <summary>
    /// The first seconds of a burst (callers queued on cold peers, or a service back from a pause) fill the estimate
    /// without the link being what held them: a full window with the CPU idle measures the capacity as the higher of it
    /// and what the link carried just before, and lowers a capacity only when the next window confirms it.
    /// </summary>
    [Fact]
    public void A_full_window_below_what_the_link_carried_just_before_is_no_capacity()
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        // Busy CPU: 5 then 10 MB/s, then a full window at 6 MB/s with the CPU idle.
        long t = Send(link, 0, 1, 50_000, cpuBusy: true);
        t = Send(link, t, 1, 100_000, cpuBusy: true);
        t = Send(link, t, 1, 60_000, cpuBusy: false, gapTicks: Second / 50);
        link.OnSent(60_000, t); // the next message closes the window
        Assert.InRange(link.Estimate(t, out string source, cpuBusy: true), 9.9e6, 10.1e6);
        Assert.Equal("send_rate", source);

        // The capacity outlives a pause and a full window at 8 MB/s after it; a second one lowers it.
        t = Send(link, t, 2, 100_000, cpuBusy: false, gapTicks: Second / 50);
        t = Send(link, t + (10 * Second), 2, 80_000, cpuBusy: false, gapTicks: Second / 50); // its first window spans the pause
        Assert.InRange(link.Estimate(t, out source, cpuBusy: true), 9.9e6, 10.1e6);
        Assert.Equal("send_rate", source);
        t = Send(link, t, 1, 80_000, cpuBusy: false, gapTicks: Second / 50);
        Assert.InRange(link.Estimate(t, out _, cpuBusy: true), 7.9e6, 8.1e6);
    }

    [Fact]
    public void A_round_trip_faster_than_a_known_capacity_does_not_raise_it_but_a_faster_link_ends_it()
    {
        // Calls queued on a 10 MB/s link with the CPU idle: its capacity. A small reply that a shaper's burst let
        // through at 25 MB/s is no stream's rate.
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 3, 100_000, cpuBusy: false, gapTicks: Second / 50);
        link.Estimate(t, out _, out bool capacity, cpuBusy: false, out _);
        Assert.True(capacity);
        link.OnRoundTrip(Second / 1000, 25_000, 25_000, t);
        AssertBusyEstimate(link, t, 10e6, "send_rate");

        // Windows that carry 30 MB/s while the calls no longer queue: the capacity was the old link's.
        t = Send(link, t, 2, 300_000, cpuBusy: false, gapTicks: Second / 200);
        Assert.True(link.Estimate(t, out _, out capacity, cpuBusy: false, out _) >= 29.9e6);
        Assert.False(capacity);
    }

    [Fact]
    public void A_full_window_after_the_link_slowed_by_more_than_any_choice_can_is_the_capacity()
    {
        // One window at 10 MB/s, then calls queued at 150 KB/s with the CPU idle: the window before is the old link's.
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 1, 100_000, cpuBusy: true);
        t = Send(link, t, 1, 1_500, cpuBusy: false, gapTicks: Second / 50);
        link.OnSent(1_500, t);
        Assert.InRange(link.Estimate(t, out string source, cpuBusy: true), 0.14e6, 0.16e6);
        Assert.Equal("send_rate", source);
    }

    [Fact]
    public void A_choice_that_sends_fewer_bytes_keeps_the_rate_the_link_carried_but_a_link_that_slows_drops_it()
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = Send(link, 0, 3, 100_000); // 10 MB/s
        // A choice that compresses more: a quarter of the bytes on the same link, then a seventh.
        t = Send(link, t, 5, 25_000);
        t = Send(link, t, 3, 14_300);
        Assert.InRange(link.Estimate(t, out string source), 9.9e6, 10.1e6);
        Assert.Equal("send_rate", source);

        // A link that slows to a sixty-sixth: gone after one busy window, and the new rate counts.
        t = Send(link, t, 3, 1_500);
        Assert.InRange(link.Estimate(t, out _), 0.14e6, 0.16e6);
    }

    /// <summary>
    /// Calls queued while the CPU has room measure the link's capacity; later the CPU is busy compressing 200 KB
    /// messages to <paramref name="wireBytes"/>, 100 a second. 85 KB keeps the link 85% full, which keeps the capacity
    /// current; 25 KB fills a quarter of it, which does not contradict it but does not confirm it either (a slow peer
    /// queues calls like a full link while this process idles), so it lapses after the hold and the estimate is the
    /// messages' raw rate.
    /// </summary>
    [Theory]
    [InlineData(85_000, 10e6, "send_rate")]
    [InlineData(25_000, 20e6, "cpu_bound")]
    public void A_capacity_is_kept_current_only_by_busy_windows_that_nearly_fill_it(long wireBytes, double after70Seconds, string source70)
    {
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        // Raw, 100 KB every 10 ms with 20 ms round trips (two calls in flight) at CPU below the watermark: 10 MB/s.
        long t = Send(link, 0, 3, 100_000, length: 100_000, cpuBusy: false, gapTicks: Second / 50);
        t = Send(link, t, 45, wireBytes, length: 200_000, cpuBusy: true, gapTicks: Second / 50);
        AssertBusyEstimate(link, t, 10e6, "send_rate");
        t = Send(link, t, 25, wireBytes, length: 200_000, cpuBusy: true, gapTicks: Second / 50);
        AssertBusyEstimate(link, t, after70Seconds, source70);
    }

    /// <summary>The estimate with the CPU busy is within 1% of <paramref name="expected"/>, from <paramref name="source"/>.</summary>
    private static void AssertBusyEstimate(LinkEstimator link, long now, double expected, string source)
    {
        Assert.InRange(link.Estimate(now, out string actual, cpuBusy: true), expected * 0.99, expected * 1.01);
        Assert.Equal(source, actual);
    }

    [Fact]
    public void A_few_large_messages_a_window_hold_nothing()
    {
        // Bytes counted as the transport takes them: four 1 MB messages can be most of a window's bytes on any link.
        var link = new LinkEstimator(1e5, measure: true, now: 0);
        long t = 0;
        for (; t <= 3 * Second; t += Second / 4)
        {
            link.OnSent(1_000_000, t);
        }

        Assert.InRange(link.Estimate(t, out _), 3.9e6, 5.1e6); // the floor of the last two windows
        Assert.Equal(1e5, link.Estimate(t + (3 * Second), out _));
    }

    [Fact]
    public void The_fits_change_of_link_leaves_the_rate_the_link_carried()
    {
        // Stalls on a busy machine trip the fit's test several times a second; the rate carried must outlive them.
        var link = new LinkEstimator(125e6, measure: true, now: 0);
        long t = Send(link, 0, 3, 100_000); // 10 MB/s
        var clock = new Trips(link, 100e6 / 8) { Now = t };
        for (int i = 0; i < 60; i++)
        {
            clock.Trip(150_000, wire: 150_000 * Ratios[i % Ratios.Length]);
        }

        clock.BytesPerSecond = 1.5e6 / 8;
        int trips = 0;
        while (!link.TakeBurst())
        {
            clock.Trip(150_000, wire: 150_000 * Ratios[trips % Ratios.Length]);
            Assert.True(++trips <= 3, "no change noticed");
        }

        Assert.InRange(link.Estimate(clock.Now, out string source), 9.9e6, 10.1e6);
        Assert.Equal("send_rate", source);
    }

    /// <summary>
    /// Sends <paramref name="bytes"/> every 10 ms for <paramref name="seconds"/> from <paramref name="from"/>, each
    /// answered after <paramref name="gapTicks"/> when given; returns the time after.
    /// </summary>
    private static long Send(LinkEstimator link, long from, int seconds, long bytes, long length = 0, bool cpuBusy = false, long gapTicks = 0)
    {
        long t = from;
        for (; t < from + (seconds * Second); t += Second / 100)
        {
            link.OnSent(bytes, t, length, cpuBusy);
            if (gapTicks > 0)
            {
                link.OnRoundTrip(gapTicks, bytes + 200, Math.Max(length, bytes) + 200, t);
            }
        }

        return t;
    }

    [Fact]
    public void A_known_link_is_not_measured()
    {
        var link = new LinkEstimator(12.5e6, measure: false, now: 0);
        link.OnBlockedWrite(64 * 1024, Second / 100, Second);
        link.OnRoundTrip(Second, 1000, 1000, Second);
        link.OnSent(1L << 30, 2 * Second);
        Assert.Equal(12.5e6, link.Estimate(2 * Second, out string source));
        Assert.Equal("prior", source);
    }

    private static readonly double[] Ratios = [1, 0.4, 0.28, 0.25, 0.23];

    /// <summary>Round trips over a link of <see cref="BytesPerSecond"/> to a peer that reads at 10 ns per byte, with ±3% seeded noise.</summary>
    private sealed class Trips(LinkEstimator link, double bytesPerSecond)
    {
        private readonly Random _noise = new(3);

        public double BytesPerSecond { get; set; } = bytesPerSecond;

        public double PeerSecondsPerByte { get; } = 10e-9;

        public double FixedSeconds { get; } = 0.0002;

        public long Now { get; set; } = Second;

        public void Trip(long length, double wire)
        {
            double seconds = ((wire + 200) / BytesPerSecond) + (length * PeerSecondsPerByte) + FixedSeconds;
            long gap = (long)(seconds * (1 + (0.03 * ((2 * _noise.NextDouble()) - 1))) * Second);
            Now += gap;
            link.OnRoundTrip(gap, (long)wire + 200, length + 189, Now);
            Now += Second / 1000;
        }
    }
}
