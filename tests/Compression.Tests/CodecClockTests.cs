using System.Diagnostics;
using System.IO.Hashing;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests;

/// <summary>
/// The clock the adaptive policy times codecs with: on 64-bit Linux the thread's CPU time, which a thread that waits
/// does not advance and one that works does; elsewhere wall time. And the encoders read it only for a policy that
/// learns from it, on messages they compress.
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
    public void Only_a_policy_that_learns_from_codec_times_has_its_compressed_messages_timed()
    {
        var outcomes = new List<CompressionOutcome>();
        CompressionSettings fixedZstd = TestData.Settings(CompressionCodec.Zstd, observer: outcomes.Add);
        TestData.Encode(new RecordingPool(), TestData.Text(64 * 1024), fixedZstd);
        Assert.NotNull(outcomes[^1].Codec);
        Assert.Equal(0, outcomes[^1].ElapsedTicks);

        var policy = new AdaptivePolicy(AdaptiveSettings.From(CompressionOptions.Adaptive with { MeasureLink = false }), SystemEnvironment.Instance);
        CompressionSettings adaptive = new(CompressionCodec.Zstd, 3, 0, 64 << 20, policy) { Observer = outcomes.Add };
        TestData.Encode(new RecordingPool(), TestData.Text(64 * 1024), adaptive);
        Assert.NotNull(outcomes[^1].Codec);
        Assert.True(outcomes[^1].ElapsedTicks > 0, "a compressed message was not timed");
        Assert.Equal(0, adaptive.CodecTime(null));
    }
}
