using System.ServiceModel.Channels;
using System.Xml;
using Surrogate.Compression;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The System.ServiceModel bindings of a contender: binary encoding over net.tcp with 64 KB connection buffers (the
/// cure for the loopback stall, docs/wcf.md), the limits and timeouts of <see cref="BenchContract"/>. The stand-in
/// host serves the client's binding (it is built from the same pieces), with its own decision log for a policy contender.
/// </summary>
public static class BenchBindings
{
    public static Binding Client(Contender contender) => Wrap(contender, Binary(contender.BuiltIn));

    /// <summary>The stand-in host's binding of <paramref name="contender"/>: the client's, with the server's decision log for a policy contender.</summary>
    public static Binding StandInService(Contender contender) => Client(contender with { Options = BenchDecisionLogs.ServerOptions(contender) });

    /// <summary>The uncompressed binding with a recorder of the replies' bytes as the binary encoder reads them.</summary>
    public static Binding Recording(ReplyRecorder recorder) =>
        WithTimeouts(new CustomBinding(new RecordingEncodingBindingElement(Binary(BuiltInCompression.None), recorder), Tcp()));

    private static Binding Wrap(Contender contender, BinaryMessageEncodingBindingElement binary)
    {
        var binding = WithTimeouts(new CustomBinding(binary, Tcp()));
        return contender.Options is { } options ? WithTimeouts(binding.WithCompression(options)) : binding;
    }

    private static BinaryMessageEncodingBindingElement Binary(BuiltInCompression format)
    {
        var binary = new BinaryMessageEncodingBindingElement
        {
            CompressionFormat = format switch
            {
                BuiltInCompression.GZip => CompressionFormat.GZip,
                BuiltInCompression.Deflate => CompressionFormat.Deflate,
                _ => CompressionFormat.None,
            },
        };
        XmlDictionaryReaderQuotas.Max.CopyTo(binary.ReaderQuotas);
        return binary;
    }

    private static TcpTransportBindingElement Tcp() => new()
    {
        ConnectionBufferSize = 64 * 1024,
        MaxReceivedMessageSize = BenchContract.MaxMessage,
        MaxBufferSize = BenchContract.MaxMessage,
    };

    private static Binding WithTimeouts(Binding binding)
    {
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = binding.CloseTimeout = BenchContract.Timeout;
        return binding;
    }
}
