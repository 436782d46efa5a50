using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Tests;

/// <summary>Streamed frames: written on the fly in blocks, read one byte at a time, and interchangeable with buffered frames.</summary>
public sealed class FrameStreamTests
{
    public static TheoryData<int> Sizes => new([0, 1, 1023, 1024, 65_535, 65_536, 65_537, 1 << 20]);

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task Streamed_frames_round_trip_read_one_byte_at_a_time(int size)
    {
        byte[] message = TestData.Text(size);
        CompressionSettings settings = TestData.Settings(CompressionCodec.Zstd, min: 1024);
        byte[] frame = await WriteAsync(message, settings);
        if (size >= 1024)
        {
            Assert.Equal((byte)CompressionCodec.Zstd, frame[2]);
            Assert.True(frame.Length < message.Length / 2);
        }
        else
        {
            Assert.Equal(0, frame[2]);
        }

        using var read = new FrameReadStream(new OneByteStream(frame), settings);
        var copy = new MemoryStream();
        await read.CopyToAsync(copy);
        Assert.Equal(message, copy.ToArray());
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public async Task Buffered_and_streamed_frames_read_either_way(CompressionCodec codec)
    {
        byte[] message = TestData.Text(200_000);
        CompressionSettings settings = TestData.Settings(codec);
        byte[] streamed = await WriteAsync(message, settings);
        Assert.Equal(message, BufferedFrames.Decode(new RecordingPool(), streamed, settings).ToArray());

        byte[] buffered = TestData.Encode(new RecordingPool(), message, settings).ToArray();
        using var read = new FrameReadStream(new MemoryStream(buffered), settings);
        var copy = new MemoryStream();
        read.CopyTo(copy);
        Assert.Equal(message, copy.ToArray());
    }

    [Fact]
    public async Task Random_blocks_go_raw_inside_a_compressed_stream()
    {
        byte[] message = [.. TestData.Text(100_000), .. TestData.Random(100_000)];
        CompressionSettings settings = TestData.Settings(CompressionCodec.Lz4);
        byte[] frame = await WriteAsync(message, settings);
        Assert.True(frame.Length < message.Length, $"{frame.Length}");
        Assert.Equal(message, BufferedFrames.Decode(new RecordingPool(), frame, settings).ToArray());
    }

    [Fact]
    public async Task A_stream_past_the_limit_fails_at_the_block_that_crosses_it()
    {
        byte[] frame = await WriteAsync(new byte[4 << 20], TestData.Settings(CompressionCodec.Zstd));
        using var read = new FrameReadStream(new MemoryStream(frame), TestData.Settings(CompressionCodec.Zstd, limit: 1 << 20));
        var error = await Assert.ThrowsAsync<MessageCompressionException>(() => read.CopyToAsync(Stream.Null));
        Assert.Contains("limit of 1048576 bytes", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_stream_cut_inside_a_block_is_truncated()
    {
        CompressionSettings settings = TestData.Settings(CompressionCodec.Brotli);
        byte[] frame = await WriteAsync(TestData.Text(300_000), settings);
        foreach (int cut in new[] { 1, 2, 5, 20, frame.Length / 2, frame.Length - 1 })
        {
            using var read = new FrameReadStream(new MemoryStream(frame[..cut]), settings);
            await Assert.ThrowsAsync<MessageCompressionException>(() => read.CopyToAsync(Stream.Null));
        }
    }

    private static async Task<byte[]> WriteAsync(byte[] message, CompressionSettings settings)
    {
        var output = new MemoryStream();
        await using (var frame = new FrameWriteStream(output, settings))
        {
            // Odd-sized writes cross block boundaries.
            for (int at = 0; at < message.Length; at += 7_777)
            {
                await frame.WriteAsync(message.AsMemory(at, Math.Min(7_777, message.Length - at)));
            }

            await frame.CompleteAsync();
        }

        return output.ToArray();
    }

    /// <summary>Returns at most one byte per read.</summary>
    private sealed class OneByteStream(byte[] data) : MemoryStream(data)
    {
        public override int Read(byte[] buffer, int offset, int count) => base.Read(buffer, offset, Math.Min(count, 1));

        public override int Read(Span<byte> buffer) => base.Read(buffer[..Math.Min(buffer.Length, 1)]);

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(buffer.Length, 1)], cancellationToken);
    }
}
