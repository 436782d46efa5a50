using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Tests;

/// <summary>Every codec at every level offered, through the buffered frame: awkward sizes, compressible and not.</summary>
public sealed class CodecRoundTripTests
{
    [Theory]
    [MemberData(nameof(TestData.AllLevels), MemberType = typeof(TestData))]
    public void Every_level_round_trips_and_compresses_text(CompressionCodec codec, int level)
    {
        CompressionOutcome? last = null;
        CompressionSettings settings = TestData.Settings(codec, level, observer: o => last = o);
        foreach (byte[] message in new[] { [], [42], TestData.Text(4096), TestData.Text(100_000, seed: 3) })
        {
            var pool = new RecordingPool();
            ArraySegment<byte> frame = TestData.Encode(pool, message, settings);
            if (message.Length >= 4096)
            {
                Assert.Equal(codec, last!.Value.Codec);
                Assert.True(frame.Count < message.Length / 2, $"{codec} {level}: {message.Length} bytes framed in {frame.Count}");
            }

            Assert.Equal(message, BufferedFrames.Decode(pool, frame, settings).ToArray());
        }
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void Sixteen_megabytes_round_trip(CompressionCodec codec)
    {
        byte[] message = TestData.Text(16 << 20, seed: 4);
        CompressionSettings settings = TestData.Settings(codec);
        var pool = new RecordingPool();
        ArraySegment<byte> frame = TestData.Encode(pool, message, settings);
        Assert.True(frame.Count < message.Length / 2);
        Assert.True(BufferedFrames.Decode(pool, frame, settings).AsSpan().SequenceEqual(message));
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void Incompressible_and_small_messages_go_raw_with_the_header_only(CompressionCodec codec)
    {
        var outcomes = new List<CompressionOutcome>();
        CompressionSettings settings = TestData.Settings(codec, min: 1024, observer: outcomes.Add);
        var pool = new RecordingPool();
        byte[] random = TestData.Random(256 * 1024);
        ArraySegment<byte> frame = TestData.Encode(pool, random, settings);
        Assert.Equal(random.Length + 11, frame.Count);
        Assert.Equal(random, BufferedFrames.Decode(pool, frame, settings).ToArray());

        byte[] small = TestData.Text(1023);
        frame = TestData.Encode(pool, small, settings);
        Assert.Equal(small.Length + 11, frame.Count);
        Assert.All(outcomes.Where(o => o.Sent), o => Assert.Null(o.Codec));
    }

    [Fact]
    public void A_raw_frame_is_the_message_behind_eleven_header_bytes_at_the_transport_offset()
    {
        var pool = new RecordingPool();
        ArraySegment<byte> frame = TestData.Encode(pool, "abc"u8.ToArray(), TestData.Settings(CompressionCodec.Zstd, min: 1024), offset: 5);
        Assert.True(frame.Offset >= 5);
        Assert.Equal<byte>([0xDC, 0x01, 0x00, 3, 0, 0, 0, 3, 0, 0, 0, (byte)'a', (byte)'b', (byte)'c'], frame.ToArray());
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void A_compressed_frame_names_its_codec_and_lengths(CompressionCodec codec)
    {
        byte[] message = TestData.Text(10_000);
        ArraySegment<byte> frame = TestData.Encode(new RecordingPool(), message, TestData.Settings(codec), offset: 8);
        Assert.Equal(8, frame.Offset);
        Assert.Equal<byte>([0xDC, 0x01, (byte)codec], frame.Slice(0, 3).ToArray());
        Assert.Equal(message.Length, BitConverter.ToInt32(frame.Array!, frame.Offset + 3));
        Assert.Equal(frame.Count - 15, BitConverter.ToInt32(frame.Array!, frame.Offset + 7));
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void A_compressed_message_holds_one_transport_buffer_each_way(CompressionCodec codec)
    {
        byte[] message = TestData.Text(100_000, seed: 5);
        CompressionSettings settings = TestData.Settings(codec);
        var pool = new RecordingPool();
        ArraySegment<byte> frame = TestData.Encode(pool, message, settings, offset: 6);
        byte[] inner = pool.Taken.Single();
        Assert.Same(inner, frame.Array);
        Assert.Equal(6, frame.Offset);
        Assert.Empty(pool.Returned);

        ArraySegment<byte> read = BufferedFrames.Decode(pool, frame, settings);
        Assert.Same(inner, read.Array);
        Assert.Single(pool.Taken);
        Assert.Empty(pool.Returned);
        Assert.Equal(message, read.ToArray());
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void A_frame_in_a_buffer_too_small_for_its_message_is_read_into_a_pool_buffer_and_given_back(CompressionCodec codec)
    {
        byte[] message = TestData.Text(100_000, seed: 6);
        CompressionSettings settings = TestData.Settings(codec);
        byte[] exact = TestData.Encode(new RecordingPool(), message, settings).ToArray();
        var pool = new RecordingPool();
        ArraySegment<byte> read = BufferedFrames.Decode(pool, exact, settings);
        Assert.Same(pool.Taken.Single(), read.Array);
        Assert.Same(exact, pool.Returned.Single());
        Assert.Equal(message, read.ToArray());
    }

    [Fact]
    public void A_message_the_inner_encoder_moved_to_the_front_of_a_tight_buffer_is_framed_in_a_pool_buffer()
    {
        byte[] message = TestData.Text(50_000, seed: 7);
        CompressionSettings settings = TestData.Settings(CompressionCodec.Lz4);
        var pool = new RecordingPool();
        byte[] moved = pool.Take(message.Length);
        message.CopyTo(moved, 0);
        ArraySegment<byte> frame = BufferedFrames.Encode(pool, new ArraySegment<byte>(moved), 49_000, settings);
        Assert.NotSame(moved, frame.Array);
        Assert.Same(pool.Taken[1], frame.Array);
        Assert.Same(moved, pool.Returned.Single());
        Assert.Equal(49_000, frame.Offset);
        Assert.Equal(message, BufferedFrames.Decode(new RecordingPool(), frame, settings).ToArray());
    }
}
