using CoreWCF;
using CoreWCF.Channels;
using Surrogate.Compression;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.CoreWCF.Compression;

/// <summary>
/// The CoreWCF twin of the client's compressing encoder, over the same frame core: CoreWCF's encoders read and
/// write streamed messages asynchronously. A frame that cannot be read becomes CoreWCF's ProtocolException (the
/// frame error inside), which CoreWCF answers as it answers any unreadable message: 400 on HTTP, a closed
/// connection on net.tcp.
/// </summary>
internal sealed class CoreWcfCompressingMessageEncoder(MessageEncoder inner, CompressionSettings settings, RoundTripClock? clock = null) : MessageEncoder
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
        ArraySegment<byte> message;
        try
        {
            message = BufferedFrames.Decode(new Buffers(bufferManager), buffer, settings);
        }
        catch (MessageCompressionException e)
        {
            throw new ProtocolException(e.Message, e);
        }

        if (clock is null)
        {
            return inner.ReadMessage(message, bufferManager, inner.ContentType);
        }

        clock.Received(buffer.Count, message.Count);
        Message read = inner.ReadMessage(message, bufferManager, inner.ContentType);
        clock.Tag(read.Properties);
        return read;
    }

    public override Task<Message> ReadMessageAsync(Stream stream, int maxSizeOfHeaders, string contentType) =>
        inner.ReadMessageAsync(new FrameReadStream(stream ?? throw new ArgumentNullException(nameof(stream)), settings), maxSizeOfHeaders, inner.ContentType);

    public override ArraySegment<byte> WriteMessage(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(bufferManager);
        string? action = message.Headers.Action;
        bool localPeer = LocalPeer();
        ArraySegment<byte> encoded = inner.WriteMessage(message, settings.MaxDecompressedSize, bufferManager, messageOffset + BufferedFrames.Reserve);
        int length = encoded.Count;
        ArraySegment<byte> frame = BufferedFrames.Encode(new Buffers(bufferManager), encoded, messageOffset, settings, action, localPeer, out CompressionChoice sent);
        if (frame.Count > maxMessageSize - (frame.Offset - messageOffset))
        {
            bufferManager.ReturnBuffer(frame.Array!);
            throw new QuotaExceededException($"The compressed message of {frame.Count} bytes exceeds the maximum message size quota for outgoing messages ({maxMessageSize}).");
        }

        // CoreWCF writes a connection's replies through another session encoder than the one that read its requests.
        // Round trips with a peer on this machine time memory, not the link.
        if (!localPeer)
        {
            RoundTripClock.ForReply(clock, clock is null ? null : OperationContext.Current?.IncomingMessageProperties)?.Sent(frame.Count, length, sent);
        }

        return frame;
    }

    public override async Task WriteMessageAsync(Message message, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(stream);
        var frame = new FrameWriteStream(stream, settings, message.Headers.Action, LocalPeer());
        await using (frame.ConfigureAwait(false))
        {
            await inner.WriteMessageAsync(message, frame).ConfigureAwait(false);
            await frame.CompleteAsync().ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Whether the request this encoder answers came from this machine (only asked when the policy sends raw there):
    /// the connection's remote address, or a Unix domain socket's address, which has none.
    /// </summary>
    private bool LocalPeer()
    {
        if (!settings.WantsPeer || OperationContext.Current is not { } context)
        {
            return false;
        }

        return context.IncomingMessageProperties?.TryGetValue(RemoteEndpointMessageProperty.Name, out object? value) == true && value is RemoteEndpointMessageProperty remote
            ? LocalPeers.IsLocal(remote.Address)
            : LocalPeers.IsLocal(context.IncomingMessageHeaders?.To);
    }

    private readonly struct Buffers(BufferManager manager) : IBufferPool
    {
        public byte[] Take(int size) => manager.TakeBuffer(size);

        public void Return(byte[] buffer) => manager.ReturnBuffer(buffer);
    }
}

/// <summary>The encoders of one CoreWCF compressing element: one over the inner encoder, a new one over each session encoder.</summary>
internal sealed class CoreWcfCompressingMessageEncoderFactory(MessageEncoderFactory inner, CompressionSettings settings) : MessageEncoderFactory
{
    private readonly CoreWcfCompressingMessageEncoder _encoder = new(inner.Encoder, settings);

    public override MessageEncoder Encoder => _encoder;

    public override MessageVersion MessageVersion => inner.MessageVersion;

    /// <summary>A new wrapper per call: the binary session encoder keeps a dictionary per connection.</summary>
    public override MessageEncoder CreateSessionEncoder() => new CoreWcfCompressingMessageEncoder(inner.CreateSessionEncoder(), settings, settings.Policy.CreateClock());
}

/// <summary>The service's encoding element; CoreWCF's transports find it among the binding's elements.</summary>
internal sealed class CoreWcfCompressingEncodingBindingElement(MessageEncodingBindingElement inner, CompressionSettings settings) : MessageEncodingBindingElement
{
    public MessageEncodingBindingElement Inner => inner;

    public CompressionSettings Settings => settings;

    public override MessageVersion MessageVersion
    {
        get => inner.MessageVersion;
        set => inner.MessageVersion = value;
    }

    public override MessageEncoderFactory CreateMessageEncoderFactory() =>
        new CoreWcfCompressingMessageEncoderFactory(inner.CreateMessageEncoderFactory(), settings);

    public override BindingElement Clone() => new CoreWcfCompressingEncodingBindingElement((MessageEncodingBindingElement)inner.Clone(), settings);

    public override T GetProperty<T>(BindingContext context) => inner.GetProperty<T>(context);
}
