using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Tests;

/// <summary>
/// Frames that are not frames, truncated, corrupted, lying or too large: each gives MessageCompressionException with a
/// message that says which, and nothing is allocated past the decompressed-size limit.
/// </summary>
public sealed class FrameErrorTests
{
    [Fact]
    public void A_plain_binary_message_is_named_as_such()
    {
        var error = Decode([0x56, 0x02, 0x0B, 0x01, 0x73], TestData.Settings(CompressionCodec.Zstd));
        Assert.Contains("0x56", error.Message, StringComparison.Ordinal);
        Assert.Contains("plain binary-encoded", error.Message, StringComparison.Ordinal);
        Assert.Contains("WithCompression", error.Message, StringComparison.Ordinal);
        Assert.Contains("plain text-encoded", Decode("<s:Envelope"u8.ToArray(), TestData.Settings(CompressionCodec.Zstd)).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Unknown_versions_and_codecs_are_named()
    {
        Assert.Contains("frame version 2", Decode([0xDC, 2, 4], TestData.Settings(CompressionCodec.Zstd)).Message, StringComparison.Ordinal);
        Assert.Contains("codec id 5", Decode([0xDC, 1, 5], TestData.Settings(CompressionCodec.Zstd)).Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void Every_truncation_is_refused(CompressionCodec codec)
    {
        CompressionSettings settings = TestData.Settings(codec);
        byte[] frame = TestData.Encode(new RecordingPool(), TestData.Text(3000), settings).ToArray();
        for (int length = 1; length < frame.Length; length++)
        {
            Assert.True(Record.Exception(() => BufferedFrames.Decode(new RecordingPool(), frame[..length], settings)) is MessageCompressionException, $"{length} of {frame.Length}");
        }
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void Every_corrupted_byte_of_a_compressed_frame_is_refused_or_harmless(CompressionCodec codec)
    {
        CompressionSettings settings = TestData.Settings(codec);
        byte[] message = TestData.Text(3000);
        byte[] frame = TestData.Encode(new RecordingPool(), message, settings).ToArray();
        int harmless = 0;
        for (int at = 0; at < frame.Length; at++)
        {
            byte[] corrupted = (byte[])frame.Clone();
            corrupted[at] ^= 0x5A;
            try
            {
                // Bits a decoder never reads (padding of the last byte) may flip without effect; the checksum stands for the rest.
                Assert.Equal(message, BufferedFrames.Decode(new RecordingPool(), corrupted, settings).ToArray());
                harmless++;
            }
            catch (MessageCompressionException)
            {
            }
        }

        Assert.True(harmless < frame.Length / 10, $"{harmless} of {frame.Length} corrupted bytes decoded"); // e.g. gzip header fields no reader checks
    }

    [Theory]
    [MemberData(nameof(TestData.AllCodecs), MemberType = typeof(TestData))]
    public void A_bomb_is_refused_by_its_header_without_allocating_past_the_limit(CompressionCodec codec)
    {
        byte[] zeros = new byte[32 << 20];
        byte[] frame = TestData.Encode(new RecordingPool(), zeros, TestData.Settings(codec)).ToArray();
        Assert.True(frame.Length < zeros.Length / 200, $"{codec}: {frame.Length} bytes");
        var pool = new RecordingPool();
        var error = Assert.Throws<MessageCompressionException>(() => BufferedFrames.Decode(pool, frame, TestData.Settings(codec, limit: 1 << 20)));
        Assert.Contains("limit of 1048576 bytes", error.Message, StringComparison.Ordinal);
        Assert.Contains("MaxDecompressedSize", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, pool.LargestTake);
    }

    [Theory]
    [InlineData(CompressionCodec.Deflate)]
    [InlineData(CompressionCodec.Lz4)]
    public void A_header_claiming_more_than_the_codec_can_expand_to_is_refused_before_allocating(CompressionCodec codec)
    {
        byte[] frame = TestData.Encode(new RecordingPool(), TestData.Text(5000), TestData.Settings(codec)).ToArray();
        BitConverter.GetBytes(60 << 20).CopyTo(frame, 3); // 60 MB from a few KB
        var pool = new RecordingPool();
        var error = Assert.Throws<MessageCompressionException>(() => BufferedFrames.Decode(pool, frame, TestData.Settings(codec)));
        Assert.Contains("cannot decompress to", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, pool.LargestTake);
    }

    private static MessageCompressionException Decode(byte[] frame, CompressionSettings settings) =>
        Assert.Throws<MessageCompressionException>(() => BufferedFrames.Decode(new RecordingPool(), frame, settings));
}
