using System.Diagnostics;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// Which messages the adaptive policy times (a reading of the thread's CPU clock is a system call): a step from its
/// second message in a row until it has its samples, then once per <see cref="AdaptivePolicy.TimingInterval"/>; one
/// received frame's decoding per interval; and the CPU outside the codecs still leaves out the untimed messages' codec.
/// </summary>
public sealed class CodecTimingTests
{
    private const long Message = 16_384;

    [Fact]
    public void A_step_is_timed_from_its_second_message_in_a_row_until_it_has_its_samples_then_once_per_interval()
    {
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_000_000_000, exploration: 0, codecs: [CompressionCodec.Lz4]);
        var choices = new List<CompressionChoice>();
        // 1 ms apart: after the samples, one message in five is timed.
        for (int i = 0; i < 30; i++)
        {
            choices.Add(Send(policy, env, codecSecondsPerByte: 2e-9));
            env.Advance(0.001);
        }

        Assert.All(choices, c => Assert.Equal((CompressionDecisionReason.Model, choices[0].Arm), (c.Reason, c.Arm)));
        Assert.NotNull(choices[0].Codec);
        bool[] timed = [.. choices.Select(c => c.Timed)];
        bool[] expected = [false, .. Enumerable.Repeat(true, Estimates.TimeSamples), .. Enumerable.Range(0, 21).Select(i => i % 5 == 4)];
        Assert.Equal(expected, timed);

        // Further apart than the interval, every message is timed, as on a slow link.
        env.Advance(1);
        for (int i = 0; i < 5; i++)
        {
            Assert.True(Send(policy, env, codecSecondsPerByte: 2e-9).Timed);
            env.Advance(AdaptivePolicy.TimingInterval.TotalSeconds);
        }
    }

    [Fact]
    public void One_received_frame_a_policy_interval_has_its_decoding_timed()
    {
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1_000_000_000);
        Assert.True(policy.TimeDecode());
        env.Advance(AdaptivePolicy.TimingInterval.TotalSeconds / 2);
        Assert.False(policy.TimeDecode());
        env.Advance(AdaptivePolicy.TimingInterval.TotalSeconds / 2);
        Assert.True(policy.TimeDecode());
        Assert.False(policy.TimeDecode());
        Assert.False(new FixedPolicy(CompressionCodec.Lz4, 0, log: null).TimeDecode());
    }

    [Fact]
    public void The_cpu_outside_the_codecs_leaves_out_the_codec_of_untimed_messages_at_its_estimate()
    {
        // 16 KB a millisecond, 10 ns a byte compressing and 20 outside: 30 ns a byte of the process's CPU in all.
        // Counting only the timed messages' codec (one in five) would leave 28 ns a byte outside.
        var env = new FakeEnvironment { Utilization = Message * 30e-9 / 0.001 / 2 };
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 100_000_000, goal: CompressionGoal.Throughput, exploration: 0, codecs: [CompressionCodec.Lz4]);
        int timed = 0;
        for (int i = 0; i < 4000; i++)
        {
            timed += Send(policy, env, codecSecondsPerByte: 10e-9).Timed ? 1 : 0;
            env.Advance(0.001);
        }

        Assert.InRange(timed, 700, 900);
        Assert.All(policy.Arms.Skip(1), arm => Assert.Equal(CompressionCodec.Lz4, arm.Codec));
        Assert.Equal(20, policy.Cpu.OwnCpuSecondsPerByte * 1e9, 0.5);
    }

    /// <summary>
    /// One message through Choose and Sent as the encoder sends it: compressed to a fifth, its codec time reported
    /// only when the choice asks for it.
    /// </summary>
    private static CompressionChoice Send(AdaptivePolicy policy, FakeEnvironment env, double codecSecondsPerByte)
    {
        CompressionChoice choice = policy.Choose("urn:a", TestData.Text(4096), Message);
        long ticks = CompressionSettings.Timed(choice) ? (long)(codecSecondsPerByte * Message * Stopwatch.Frequency) : 0;
        policy.Sent(choice, new CompressionOutcome(true, choice.Codec, choice.Level, Message, choice.Codec is null ? Message + 5 : (Message / 5) + 20, ticks));
        return choice;
    }
}
