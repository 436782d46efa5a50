using System.ServiceModel.Channels;

namespace Surrogate.Integration.Tests;

/// <summary>
/// A custom encoding element (own content type, delegating to binary encoding) that counts what it reads and writes,
/// to show that the host takes its encoder from the binding, session encoder included.
/// </summary>
public sealed class CountingEncodingBindingElement(MessageEncodingBindingElement inner) : MessageEncodingBindingElement
{
    public const string CountedContentType = "application/x-counted";

    private static int reads;
    private static int writes;

    public static int Reads => Volatile.Read(ref reads);

    public static int Writes => Volatile.Read(ref writes);

    public override MessageVersion MessageVersion
    {
        get => inner.MessageVersion;
        set => inner.MessageVersion = value;
    }

    public override MessageEncoderFactory CreateMessageEncoderFactory() => new Factory(inner.CreateMessageEncoderFactory());

    public override BindingElement Clone() => new CountingEncodingBindingElement((MessageEncodingBindingElement)inner.Clone());

    // The client transports find the encoder only in the binding parameters.
    public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
    {
        context.BindingParameters.Add(this);
        return context.BuildInnerChannelFactory<TChannel>();
    }

    public override bool CanBuildChannelFactory<TChannel>(BindingContext context) => context.CanBuildInnerChannelFactory<TChannel>();

    public override T GetProperty<T>(BindingContext context) => inner.GetProperty<T>(context) ?? context.GetInnerProperty<T>();

    private sealed class Factory(MessageEncoderFactory inner) : MessageEncoderFactory
    {
        public override MessageEncoder Encoder => new Counting(inner.Encoder);

        public override MessageVersion MessageVersion => inner.MessageVersion;

        public override MessageEncoder CreateSessionEncoder() => new Counting(inner.CreateSessionEncoder());
    }

    private sealed class Counting(MessageEncoder inner) : MessageEncoder
    {
        public override string ContentType => CountedContentType;

        public override string MediaType => CountedContentType;

        public override MessageVersion MessageVersion => inner.MessageVersion;

        public override bool IsContentTypeSupported(string contentType) =>
            contentType.StartsWith(CountedContentType, StringComparison.OrdinalIgnoreCase);

        public override Message ReadMessage(ArraySegment<byte> buffer, BufferManager bufferManager, string contentType)
        {
            Interlocked.Increment(ref reads);
            return inner.ReadMessage(buffer, bufferManager, inner.ContentType);
        }

        public override Message ReadMessage(Stream stream, int maxSizeOfHeaders, string contentType)
        {
            Interlocked.Increment(ref reads);
            return inner.ReadMessage(stream, maxSizeOfHeaders, inner.ContentType);
        }

        public override ArraySegment<byte> WriteMessage(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset)
        {
            Interlocked.Increment(ref writes);
            return inner.WriteMessage(message, maxMessageSize, bufferManager, messageOffset);
        }

        public override void WriteMessage(Message message, Stream stream)
        {
            Interlocked.Increment(ref writes);
            inner.WriteMessage(message, stream);
        }
    }
}
