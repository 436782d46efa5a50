using System.Diagnostics;
using System.IO.Hashing;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests;

/// <summary>
/// The clock the adaptive policy times codecs with: on 64-bit Linux the thread's CPU time, which a thread that waits
/// does not advance and one that works does; elsewhere wall time. And the encoders read it only around the codecs of
/// the messages a policy asks to time: the adaptive policy's, a few a second.
/// </summary>
public sealed class CodecClockTests
{
    [Fact]
    public void On_64_bit_Linux_the_codec_clock_counts_the_threads_work_and_not_its_waiting()
    {
        bool threadCpu = OperatingSystem.IsLinux() && Environment.Is64BitProcess;
        Assert.Equal(threadCpu, CodecClock.MeasuresCpu);
        long before = CodecClock.Now();
        Thread.Sleep(300);
        double slept = (CodecClock.Now() - before) / (double)Stopwatch.Frequency;
        if (threadCpu)
        {
            Assert.InRange(slept, 0, 0.1);
        }
        else
        {
            Assert.True(slept >= 0.29, $"{slept} s of wall time over a 300 ms sleep");
        }

        // Work moves it: 50 ms of this thread's clock pass within 30 s of wall time, however busy the machine.
        byte[] data = new byte[64 * 1024];
        long start = CodecClock.Now();
        var wall = Stopwatch.StartNew();
        while (CodecClock.Now() - start < Stopwatch.Frequency / 20 && wall.Elapsed < TimeSpan.FromSeconds(30))
        {
            data[0] = (byte)XxHash32.HashToUInt32(data);
        }

        Assert.True(CodecClock.Now() - start >= Stopwatch.Frequency / 20, "50 ms of work did not move the codec clock within 30 s");
    }

    [Fact]
    public void The_encoders_read_the_codec_clock_only_for_the_messages_a_policy_times()
    {
        var outcomes = new List<CompressionOutcome>();
        CompressionSettings fixedZstd = TestData.Settings(CompressionCodec.Zstd, observer: outcomes.Add);
        TestData.Encode(new RecordingPool(), TestData.Text(64 * 1024), fixedZstd);
        Assert.NotNull(outcomes[^1].Codec);
        Assert.Equal(0, outcomes[^1].ElapsedTicks);
        Assert.False(fixedZstd.TimesDecode(CompressionCodec.Zstd));

        foreach (bool timed in new[] { false, true })
        {
            CompressionSettings settings = new(CompressionCodec.Zstd, 3, 0, 64 << 20, new TimingPolicy(timed)) { Observer = outcomes.Add };
            var pool = new RecordingPool();
            ArraySegment<byte> frame = TestData.Encode(pool, TestData.Text(64 * 1024), settings);
            Assert.Equal((true, CompressionCodec.Zstd, timed), (outcomes[^1].Sent, outcomes[^1].Codec, outcomes[^1].ElapsedTicks > 0));
            BufferedFrames.Decode(pool, frame, settings);
            Assert.Equal((false, CompressionCodec.Zstd, timed), (outcomes[^1].Sent, outcomes[^1].Codec, outcomes[^1].ElapsedTicks > 0));
            Assert.False(settings.TimesDecode(null));
        }
    }

    /// <summary>Zstd 3 for every message, timed or not as the test says; decoding likewise.</summary>
    private sealed class TimingPolicy(bool timed) : MessagePolicy(log: null)
    {
        public override CompressionChoice Choose(string action, ReadOnlySpan<byte> sample, long length) =>
            new(CompressionCodec.Zstd, 3, CompressionDecisionReason.Model, action, Timed: timed);

        public override bool TimeDecode() => timed;
    }
}
