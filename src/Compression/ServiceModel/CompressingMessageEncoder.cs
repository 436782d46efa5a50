using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.ServiceModel;

/// <summary>
/// Wraps a System.ServiceModel encoder: every message it writes is the inner encoder's bytes in a compressed frame,
/// and every message it reads is a frame whose bytes it decompresses for the inner encoder. Its content type is the
/// inner media type with <see cref="CompressionContentType.Suffix"/>, so a peer without it refuses the connection or request
/// instead of misreading it.
/// </summary>
internal sealed class CompressingMessageEncoder(MessageEncoder inner, CompressionSettings settings, RoundTripClock? clock = null) : MessageEncoder
{
    private readonly string _contentType = inner.MediaType + CompressionContentType.Suffix;

    public override string ContentType => _contentType;

    public override string MediaType => _contentType;

    public override MessageVersion MessageVersion => inner.MessageVersion;

    public override bool IsContentTypeSupported(string contentType) =>
        ContentTypes.Matches(contentType ?? throw new ArgumentNullException(nameof(contentType)), _contentType);

    public override T GetProperty<T>() => inner.GetProperty<T>();

    public override Message ReadMessage(ArraySegment<byte> buffer, BufferManager bufferManager, string contentType)
    {
        ArgumentNullException.ThrowIfNull(bufferManager);
        ArraySegment<byte> message = BufferedFrames.Decode(new Buffers(bufferManager), buffer, settings);
        clock?.Received(buffer.Count, message.Count);
        return inner.ReadMessage(message, bufferManager, inner.ContentType);
    }

    public override Message ReadMessage(Stream stream, int maxSizeOfHeaders, string contentType) =>
        inner.ReadMessage(new FrameReadStream(stream ?? throw new ArgumentNullException(nameof(stream)), settings), maxSizeOfHeaders, inner.ContentType);

    public override ArraySegment<byte> WriteMessage(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset)
    {
        ArgumentNullException.ThrowIfNull(bufferManager);
        // The inner message may be as large as this end would accept decompressed; the frame must fit maxMessageSize.
        string? action = message.Headers.Action;
        bool localPeer = LocalPeer(message);
        ArraySegment<byte> encoded = inner.WriteMessage(message, settings.MaxDecompressedSize, bufferManager, messageOffset + BufferedFrames.Reserve);
        int length = encoded.Count;
        ArraySegment<byte> frame = BufferedFrames.Encode(new Buffers(bufferManager), encoded, messageOffset, settings, action, localPeer, out CompressionChoice sent);
        if (frame.Count > maxMessageSize - (frame.Offset - messageOffset))
        {
            bufferManager.ReturnBuffer(frame.Array!);
            throw new QuotaExceededException($"The compressed message of {frame.Count} bytes exceeds the maximum message size quota for outgoing messages ({maxMessageSize}).");
        }

        // Round trips with a peer on this machine time memory, not the link (the next receive is not timed either).
        if (!localPeer)
        {
            clock?.Sent(frame.Count, length, sent);
        }

        return frame;
    }

    public override void WriteMessage(Message message, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(stream);
        using var frame = new FrameWriteStream(stream, settings, message.Headers.Action, LocalPeer(message));
        inner.WriteMessage(message, frame);
        frame.Complete();
    }

    public override async ValueTask WriteMessageAsync(Message message, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(stream);
        var frame = new FrameWriteStream(stream, settings, message.Headers.Action, LocalPeer(message));
        await using (frame.ConfigureAwait(false))
        {
            await inner.WriteMessageAsync(message, frame).ConfigureAwait(false);
            await frame.CompleteAsync().ConfigureAwait(false);
        }
    }

    /// <summary>Whether <paramref name="message"/> goes to a peer on this machine (only asked when the policy sends raw there).</summary>
    private bool LocalPeer(Message message) => settings.WantsPeer && LocalPeers.IsLocal(message.Headers.To);

    private readonly struct Buffers(BufferManager manager) : IBufferPool
    {
        public byte[] Take(int size) => manager.TakeBuffer(size);

        public void Return(byte[] buffer) => manager.ReturnBuffer(buffer);
    }
}

/// <summary>The encoders of one compressing binding element: a wrapper over the inner factory's encoder, and a new one over each session encoder.</summary>
internal sealed class CompressingMessageEncoderFactory(MessageEncoderFactory inner, CompressionSettings settings) : MessageEncoderFactory
{
    private readonly CompressingMessageEncoder _encoder = new(inner.Encoder, settings);

    public override MessageEncoder Encoder => _encoder;

    public override MessageVersion MessageVersion => inner.MessageVersion;

    /// <summary>A new wrapper per call: the binary session encoder keeps a dictionary per connection.</summary>
    public override MessageEncoder CreateSessionEncoder() => new CompressingMessageEncoder(inner.CreateSessionEncoder(), settings, settings.Policy.CreateClock());
}
