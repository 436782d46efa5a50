using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.Compression.ServiceModel;

namespace Surrogate.Compression.Tests;

/// <summary>The client's one line: what WithCompression builds, what it refuses, and the binding-parameter trap.</summary>
public sealed class BindingTests
{
    [Fact]
    public void WithCompression_wraps_the_encoding_and_keeps_the_rest()
    {
        var tcp = new NetTcpBinding(SecurityMode.None) { MaxReceivedMessageSize = 5_000_000, SendTimeout = TimeSpan.FromSeconds(7), TransferMode = TransferMode.Streamed };
        CustomBinding binding = tcp.WithCompression(new CompressionOptions { Codec = CompressionCodec.Brotli, Level = 9 });
        var element = Assert.IsType<CompressingEncodingBindingElement>(binding.Elements.Find<MessageEncodingBindingElement>());
        Assert.IsType<BinaryMessageEncodingBindingElement>(element.Inner);
        Assert.Equal((CompressionCodec.Brotli, 9, 5_000_000), (element.Settings.Codec, element.Settings.Level, element.Settings.MaxDecompressedSize));
        Assert.Equal(TimeSpan.FromSeconds(7), binding.SendTimeout);
        Assert.Equal(TransferMode.Streamed, binding.Elements.Find<TcpTransportBindingElement>()!.TransferMode);
        Assert.Equal(123, new BasicHttpBinding().WithCompression(new CompressionOptions { MaxDecompressedSize = 123 })
            .Elements.Find<CompressingEncodingBindingElement>()!.Settings.MaxDecompressedSize);
    }

    [Fact]
    public void WithCompression_refuses_a_second_compression_and_bad_options()
    {
        CustomBinding once = new NetTcpBinding(SecurityMode.None).WithCompression();
        Assert.Contains("already compressing", Assert.Throws<ArgumentException>(() => once.WithCompression()).Message, StringComparison.Ordinal);
        var builtIn = new CustomBinding(new BinaryMessageEncodingBindingElement { CompressionFormat = CompressionFormat.GZip }, new TcpTransportBindingElement());
        Assert.Contains("CompressionFormat.GZip", Assert.Throws<ArgumentException>(() => builtIn.WithCompression()).Message, StringComparison.Ordinal);
        var levelOne = Assert.Throws<ArgumentException>(() => new NetTcpBinding().WithCompression(new CompressionOptions { Codec = CompressionCodec.Deflate, Level = 1 }));
        Assert.Contains("deflate_quick", levelOne.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => new NetTcpBinding().WithCompression(new CompressionOptions { Codec = CompressionCodec.Zstd, Level = 22 }));
        Assert.Throws<ArgumentException>(() => new NetTcpBinding().WithCompression(new CompressionOptions { MinMessageSize = -1 }));
        Assert.Throws<ArgumentException>(() => new NetTcpBinding().WithCompression(new CompressionOptions { MaxDecompressedSize = 0 }));
        Assert.Throws<ArgumentException>(() => new NetTcpBinding().WithCompression(new CompressionOptions { Codec = (CompressionCodec)5 }));
    }

    [Fact]
    public void The_element_puts_itself_in_the_binding_parameters_for_the_transport()
    {
        var transport = new RecordingTransport();
        var binding = new CustomBinding(new CustomBinding(new BinaryMessageEncodingBindingElement(), transport).WithCompression().Elements);
        var context = new BindingContext(binding, new BindingParameterCollection());
        Assert.Throws<NotSupportedException>(() => context.BuildInnerChannelFactory<IRequestChannel>());
        Assert.IsType<CompressingEncodingBindingElement>(RecordingTransport.Seen);
    }

    [Fact]
    public void Each_session_gets_its_own_encoder()
    {
        MessageEncoderFactory factory = new NetTcpBinding(SecurityMode.None).WithCompression().Elements.Find<MessageEncodingBindingElement>()!.CreateMessageEncoderFactory();
        MessageEncoder first = factory.CreateSessionEncoder();
        Assert.NotSame(first, factory.CreateSessionEncoder());
        Assert.Equal("application/soap+msbinsession1+surrogate-compressed", first.ContentType);
        Assert.Equal("application/soap+msbin1+surrogate-compressed", factory.Encoder.ContentType);
        Assert.True(first.IsContentTypeSupported("application/soap+msbinsession1+surrogate-compressed"));
        Assert.False(first.IsContentTypeSupported("application/soap+msbinsession1"));
    }

    /// <summary>A transport that records the encoding element it finds in the binding parameters, then stops.</summary>
    private sealed class RecordingTransport : TransportBindingElement
    {
        public static MessageEncodingBindingElement? Seen { get; private set; }

        public override string Scheme => "test";

        public override BindingElement Clone() => new RecordingTransport();

        public override T GetProperty<T>(BindingContext context) => context.GetInnerProperty<T>();

        public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
        {
            Seen = context.BindingParameters.Find<MessageEncodingBindingElement>();
            throw new NotSupportedException("recorded");
        }
    }
}
