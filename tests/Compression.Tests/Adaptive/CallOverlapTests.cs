using System.Diagnostics;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// Whether a policy's calls come one at a time: a window of replies that each answered their request with no other
/// session's message between is serial; overlapped replies, too few replies or an old window are not.
/// </summary>
public sealed class CallOverlapTests
{
    private static readonly long Second = Stopwatch.Frequency;

    [Theory]
    [InlineData(20, 0, true)]
    [InlineData(20, 2, true)]     // 90% alone
    [InlineData(20, 3, false)]    // 85%
    [InlineData(15, 0, false)]    // too few to tell
    public void A_window_is_serial_when_nine_in_ten_of_its_replies_were_alone(int replies, int overlapped, bool serial)
    {
        var overlap = new CallOverlap();
        overlap.Replied(alone: true, 0);
        for (int i = 0; i < replies - 1; i++)
        {
            overlap.Replied(alone: i >= overlapped, (i + 1) * Second / 100);
        }

        Assert.False(overlap.Serial(Second / 2));
        // The next reply after the window's second ends it.
        overlap.Replied(alone: true, Second);
        Assert.Equal(serial, overlap.Serial(Second));
        Assert.Equal(serial, overlap.Serial(3 * Second));
        // A window that ended more than 2 s ago says nothing.
        Assert.False(overlap.Serial((3 * Second) + 1));
    }

    [Fact]
    public void One_session_at_a_time_is_serial_and_two_interleaved_are_not()
    {
        var env = new FakeEnvironment();
        var link = new LinkEstimator(12.5e6, measure: true, env.Timestamp);
        var alone = new CallOverlap();
        RoundTripClock one = new(link, env, overlap: alone);
        for (int i = 0; i < 40; i++)
        {
            one.Received(200, 189);
            env.Advance(0.01);
            one.Sent(16_000, 16_000);
            env.Advance(0.02);
        }

        Assert.True(alone.Serial(env.Timestamp));

        var shared = new CallOverlap();
        RoundTripClock a = new(link, env, overlap: shared);
        RoundTripClock b = new(link, env, overlap: shared);
        for (int i = 0; i < 40; i++)
        {
            a.Received(200, 189);
            b.Received(200, 189);
            env.Advance(0.01);
            a.Sent(16_000, 16_000);
            b.Sent(16_000, 16_000);
            env.Advance(0.02);
        }

        Assert.False(shared.Serial(env.Timestamp));
    }
}
