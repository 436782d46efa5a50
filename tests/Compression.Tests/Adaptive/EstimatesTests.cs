using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The compression-time estimate on a busy machine: a descheduled message looks many times slower than its work, a
/// real slowdown makes every message slower; the estimate follows the second and not the first.
/// </summary>
public sealed class EstimatesTests
{
    private const double Work = 1 / 400e6; // LZ4 on medium messages: 150 KB in 0.37 ms

    [Fact]
    public void One_message_in_four_descheduled_for_ten_times_its_work_leaves_the_speed_within_15_percent()
    {
        var estimates = new Estimates(steps: 2, now: 0);
        for (int i = 0; i < 200; i++)
        {
            estimates.Observe(1, 0.5, i % 4 == 3 ? 10 * Work : Work);
        }

        Assert.InRange(estimates.SecondsPerByte[1], Work, 1.15 * Work);
    }

    [Fact]
    public void Six_messages_in_eight_held_up_by_other_work_leave_the_speed_at_the_work()
    {
        // A step only explored runs after other requests' work, and on a shared core waits for it: most of its wall
        // times lie well above its work. A mean, capped or not, reads it far slower than it is.
        var estimates = new Estimates(steps: 2, now: 0);
        double[] heldUp = [1.4, 1.9, 1.6, 2.3, 1.5, 1.8];
        for (int i = 0; i < 200; i++)
        {
            estimates.Observe(1, 0.5, i % 8 < 2 ? Work : heldUp[i % 8 - 2] * Work);
        }

        Assert.Equal(Work, estimates.SecondsPerByte[1], 15);
    }

    [Fact]
    public void A_codec_that_really_became_twice_as_slow_is_believed_within_20_messages()
    {
        var estimates = new Estimates(steps: 2, now: 0);
        for (int i = 0; i < 50; i++)
        {
            estimates.Observe(1, 0.5, Work);
        }

        for (int i = 0; i < 20; i++)
        {
            estimates.Observe(1, 0.5, 2 * Work);
        }

        Assert.InRange(estimates.SecondsPerByte[1], 1.9 * Work, 2 * Work);
    }

    [Fact]
    public void A_first_message_descheduled_is_forgotten_within_20_messages()
    {
        var estimates = new Estimates(steps: 2, now: 0);
        estimates.Observe(1, 0.5, 20 * Work);
        for (int i = 0; i < 20; i++)
        {
            estimates.Observe(1, 0.5, Work);
        }

        Assert.InRange(estimates.SecondsPerByte[1], Work, 1.25 * Work);
    }
}
