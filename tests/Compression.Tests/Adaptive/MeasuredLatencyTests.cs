using System.Diagnostics;
using Surrogate.Compression.Policies;
using Xunit.Abstractions;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The latency model corrected by the calls' measured cycles: one caller on a rate-limited link (tc's token bucket,
/// as the benchmark's 100 Mbit/s link) gets the step whose calls are fastest, not the one the model's sum of
/// compression, wire and decoding says; a step's measured time is the median of its recent calls, a change the chosen
/// step's calls show forgets the others, and overlapping calls count for nothing.
/// </summary>
public sealed class MeasuredLatencyTests(ITestOutputHelper output)
{
    private static readonly long Second = Stopwatch.Frequency;

    [Fact]
    public void One_caller_on_a_token_bucket_gets_the_step_its_calls_measure_fastest()
    {
        // Medium 16 KB replies, one caller, 100 Mbit/s, the service at 35% CPU, as the grid's one-client cell. Through
        // tc's bucket (the grid's 6,250 B, half a millisecond of the link) the tokens come back while the service
        // compresses and the client reads, so a call takes about the larger of its wire time and the rest: zstd 3 (0.55 ms) beats zstd 1 (0.58) and LZ4 (0.66). On a wire
        // the two add up and LZ4 is fastest (0.82 ms to zstd 1's 0.86). The model, which adds them and slows
        // compression by the load, says LZ4 in both, which through the bucket serves 0.84x of zstd 3.
        ClosedLoopService bucket = Service(bucketBytes: 6_250);
        ClosedLoopService wire = Service(bucketBytes: 0);
        Assert.Equal("zstd-3", bucket.OneClientFastest());
        Assert.Equal("lz4-0", wire.OneClientFastest());
        Assert.True(bucket.OneClientCycle(Step("lz4-0")) > 1.1 * bucket.OneClientCycle(Step("zstd-3")));

        foreach ((string name, ClosedLoopService world) in new[] { ("bucket", bucket), ("wire", wire) })
        {
            ClosedLoopService.Result result = world.Run();
            string fastest = world.OneClientFastest();
            // The last 20 s of calls against as many at the fastest step, one after another.
            double served = result.LateChoices.Count / 20.0 * world.OneClientCycle(Step(fastest));
            int model = result.ModelChoices.Count();
            double share = result.ModelChoices.Count(c => c == fastest) / (double)model;
            output.WriteLine($"{name}: {result.Summary()}; {served:F3}x of {fastest}, {share:P1} of the model's choices; a call: "
                + string.Join(", ", new[] { "lz4-0", "zstd-1", "zstd-3" }.Select(s => $"{s} {world.OneClientCycle(Step(s)) * 1e3:F3} ms")));
            Assert.All(result.LateChoices, c => Assert.Equal(CompressionGoal.Latency, c.Goal));
            Assert.True(served >= 0.95, $"{name}: {served:F3}x of {fastest}");
            // A step it has not measured lately can look cheaper for a few calls, until they measure it.
            Assert.True(share >= 0.9, $"{name}: {share:P1} of the model's choices {fastest}");
        }
    }

    private static Arm Step(string name) =>
        ArmLadder.Build(CompressionOptions.Adaptive.AdaptiveCodecs).Single(a => PolicyWorld.Name(a.Codec, a.Level) == name);

    [Fact]
    public void A_step_known_from_three_recent_calls_takes_their_median()
    {
        var latency = new MeasuredLatency(4);
        foreach (double d in new[] { 0.004, 0.001, 0.002, 0.009 })
        {
            latency.Observe(1, d, chosen: true);
        }

        foreach (double d in new[] { 0.006, 0.005, 0.030 })
        {
            latency.Observe(2, d, chosen: true);
        }

        latency.Observe(3, 0.5, chosen: true);
        latency.Observe(3, 0.5, chosen: true);
        latency.Refresh(inFlight: 1);
        Assert.Equal(0.003, latency.Beyond(1), 9);
        Assert.Equal(0.006, latency.Beyond(2), 9);
        Assert.True(latency.Known(1) && latency.Known(2));
        // Two calls are not enough, none are none.
        Assert.False(latency.Known(3));
        Assert.False(latency.Known(0));
    }

    [Fact]
    public void Only_the_last_eight_calls_count()
    {
        var latency = new MeasuredLatency(2);
        for (int i = 0; i < 8; i++)
        {
            latency.Observe(1, 1.0, chosen: true);
        }

        for (int i = 0; i < 8; i++)
        {
            latency.Observe(1, 0.002, chosen: true);
        }

        latency.Refresh(inFlight: double.NaN);
        Assert.True(latency.Known(1));
        Assert.Equal(0.002, latency.Beyond(1), 9);
    }

    [Theory]
    [InlineData(2.0, false)]       // calls overlap: their cycles hold waits for each other
    [InlineData(1.0, true)]
    [InlineData(double.NaN, true)] // calls in flight not known
    public void Overlapping_calls_leave_a_step_unknown(double inFlight, bool known)
    {
        var latency = new MeasuredLatency(2);
        for (int i = 0; i < 3; i++)
        {
            latency.Observe(1, 0.004, chosen: true);
        }

        latency.Refresh(inFlight);
        Assert.Equal(known, latency.Known(1));
    }

    [Theory]
    [InlineData(0.008, true, true)]     // the chosen step's calls three times in a row twice as slow: a change
    [InlineData(0.0056, true, false)]   // two fifths slower: noise
    [InlineData(0.008, false, false)]   // an explored step's: it starts over alone
    public void Three_surprising_calls_of_the_chosen_step_in_a_row_forget_the_other_steps(double surprise, bool chosen, bool forgets)
    {
        var latency = new MeasuredLatency(3);
        for (int i = 0; i < 5; i++)
        {
            latency.Observe(1, 0.004, chosen: true);
            latency.Observe(2, 0.003, chosen: true);
        }

        for (int i = 0; i < 3; i++)
        {
            latency.Observe(1, surprise, chosen);
        }

        latency.Refresh(inFlight: 1);
        Assert.Equal(!forgets, latency.Known(2));
        Assert.True(latency.Known(1));
        // After three surprises the step's median is theirs alone.
        Assert.Equal(surprise == 0.008 ? surprise : 0.004, latency.Beyond(1), 9);
    }

    [Fact]
    public void A_call_is_timed_from_its_request_to_the_next_unless_another_session_worked_in_between()
    {
        var env = new FakeEnvironment();
        var link = new LinkEstimator(12.5e6, measure: true, env.Timestamp);
        var overlap = new CallOverlap();
        var cycles = new List<(CompressionChoice Choice, long Ticks)>();
        var one = new RoundTripClock(link, env, (c, t) => cycles.Add((c, t)), overlap);
        var other = new RoundTripClock(link, env, (c, t) => cycles.Add((c, t)), overlap);
        var key = new object();
        var choice = new CompressionChoice(null, 0, CompressionDecisionReason.Model, "a", Key: key, Arm: 0);

        one.Received(200, 189);
        env.Advance(0.001);
        one.Sent(16_000, 16_000, choice);
        env.Advance(0.002);
        one.Received(200, 189);
        Assert.Equal((choice, 3 * Second / 1000), Assert.Single(cycles), new TicksNear());

        // The other session receives while this one's call is open: that call's cycle is not taken.
        env.Advance(0.001);
        other.Received(200, 189);
        one.Sent(16_000, 16_000, choice);
        env.Advance(0.002);
        one.Received(200, 189);
        Assert.Single(cycles);

        // A reply not sent as a policy chose it (a codec's result that went raw) is not taken either.
        one.Sent(16_000, 16_000);
        env.Advance(0.002);
        one.Received(200, 189);
        Assert.Single(cycles);
    }

    private static ClosedLoopService Service(double bucketBytes) => new()
    {
        Clients = 1,
        LinkBitsPerSecond = 100e6,
        Length = 16_447,
        ReadSeconds = 0.0001,
        Cores = 1,
        Utilization = 0.35,
        BucketBytes = bucketBytes,
        Behaviour = MediumLike,
    };

    /// <summary>Replies like the grid's medium class: LZ4 0.50 at 400 MB/s, zstd 1/3/6/9/15 0.44/0.42/0.41/0.40/0.39 at 100/60/25/12/3 MB/s, DEFLATE 6 0.43 at 20.</summary>
    private static CodecBehaviour MediumLike(CompressionCodec codec, int level) => (codec, level) switch
    {
        (CompressionCodec.Lz4, _) => new(0.50, 1 / 400e6),
        (CompressionCodec.Zstd, 1) => new(0.44, 1 / 100e6),
        (CompressionCodec.Zstd, 3) => new(0.42, 1 / 60e6),
        (CompressionCodec.Zstd, 6) => new(0.41, 1 / 25e6),
        (CompressionCodec.Zstd, 9) => new(0.40, 1 / 12e6),
        (CompressionCodec.Zstd, _) => new(0.39, 1 / 3e6),
        (CompressionCodec.Deflate, _) => new(0.43, 1 / 20e6),
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "the default ladder has LZ4, zstd and DEFLATE only"),
    };

    /// <summary>A cycle's choice equal and its ticks within a microsecond (the clock's ticks round).</summary>
    private sealed class TicksNear : IEqualityComparer<(CompressionChoice Choice, long Ticks)>
    {
        public bool Equals((CompressionChoice Choice, long Ticks) x, (CompressionChoice Choice, long Ticks) y) =>
            x.Choice == y.Choice && Math.Abs(x.Ticks - y.Ticks) <= Second / 1_000_000;

        public int GetHashCode((CompressionChoice Choice, long Ticks) obj) => 0;
    }
}
