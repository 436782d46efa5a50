using System.ServiceModel.Channels;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>Holds a copy of the last reply the recording encoder read: the bytes a compressing server's encoder would compress.</summary>
public sealed class ReplyRecorder
{
    private byte[]? last;

    public byte[]? Last => Volatile.Read(ref last);

    public void Record(ArraySegment<byte> buffer) => Volatile.Write(ref last, buffer.ToArray());
}

/// <summary>
/// Wraps the client's binary encoding element and records each reply's bytes as the inner (session) encoder reads
/// them, so the codec sweep times the codecs on exactly what travels (net.tcp's session dictionary included). Like
/// any custom encoding element it adds itself to the binding parameters, or the transport would use its default encoder.
/// </summary>
internal sealed class RecordingEncodingBindingElement(MessageEncodingBindingElement inner, ReplyRecorder recorder) : MessageEncodingBindingElement
{
    public override MessageVersion MessageVersion
    {
        get => inner.MessageVersion;
        set => inner.MessageVersion = value;
    }

    public override MessageEncoderFactory CreateMessageEncoderFactory() => new Factory(inner.CreateMessageEncoderFactory(), recorder);

    public override BindingElement Clone() => new RecordingEncodingBindingElement((MessageEncodingBindingElement)inner.Clone(), recorder);

    public override T GetProperty<T>(BindingContext context) => inner.GetProperty<T>(context);

    public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
    {
        context.BindingParameters.Add(this);
        return context.BuildInnerChannelFactory<TChannel>();
    }

    public override bool CanBuildChannelFactory<TChannel>(BindingContext context) => context.CanBuildInnerChannelFactory<TChannel>();

    private sealed class Factory(MessageEncoderFactory inner, ReplyRecorder recorder) : MessageEncoderFactory
    {
        private readonly Encoder encoder = new(inner.Encoder, recorder);

        public override MessageEncoder Encoder => encoder;

        public override MessageVersion MessageVersion => inner.MessageVersion;

        /// <summary>A new wrapper per connection, over the binary session encoder's per-connection dictionary.</summary>
        public override MessageEncoder CreateSessionEncoder() => new Encoder(inner.CreateSessionEncoder(), recorder);
    }

    private sealed class Encoder(MessageEncoder inner, ReplyRecorder recorder) : MessageEncoder
    {
        public override string ContentType => inner.ContentType;

        public override string MediaType => inner.MediaType;

        public override MessageVersion MessageVersion => inner.MessageVersion;

        public override bool IsContentTypeSupported(string contentType) => inner.IsContentTypeSupported(contentType);

        public override T GetProperty<T>() => inner.GetProperty<T>();

        public override Message ReadMessage(ArraySegment<byte> buffer, BufferManager bufferManager, string contentType)
        {
            recorder.Record(buffer);
            return inner.ReadMessage(buffer, bufferManager, contentType);
        }

        public override Message ReadMessage(Stream stream, int maxSizeOfHeaders, string contentType) => inner.ReadMessage(stream, maxSizeOfHeaders, contentType);

        public override ArraySegment<byte> WriteMessage(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset) =>
            inner.WriteMessage(message, maxMessageSize, bufferManager, messageOffset);

        public override void WriteMessage(Message message, Stream stream) => inner.WriteMessage(message, stream);
    }
}
