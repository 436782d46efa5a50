using System.ServiceModel.Channels;
using Surrogate.Compression.Framing;

namespace Surrogate.Compression.ServiceModel;

/// <summary>
/// The client's encoding element: wraps the binding's own encoding element (binary, text) and compresses what it
/// encodes. It adds itself to the binding parameters when the channel factory is built, since the transports read the
/// encoder only from there and otherwise silently use their default one.
/// </summary>
internal sealed class CompressingEncodingBindingElement(MessageEncodingBindingElement inner, CompressionSettings settings) : MessageEncodingBindingElement
{
    public MessageEncodingBindingElement Inner => inner;

    public CompressionSettings Settings => settings;

    public override MessageVersion MessageVersion
    {
        get => inner.MessageVersion;
        set => inner.MessageVersion = value;
    }

    public override MessageEncoderFactory CreateMessageEncoderFactory() =>
        new CompressingMessageEncoderFactory(inner.CreateMessageEncoderFactory(), settings);

    public override BindingElement Clone() => new CompressingEncodingBindingElement((MessageEncodingBindingElement)inner.Clone(), settings);

    public override T GetProperty<T>(BindingContext context) => inner.GetProperty<T>(context);

    public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.BindingParameters.Add(this);
        return context.BuildInnerChannelFactory<TChannel>();
    }

    public override bool CanBuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return context.CanBuildInnerChannelFactory<TChannel>();
    }
}
