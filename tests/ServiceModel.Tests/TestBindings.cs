using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Surrogate.ServiceModel.Tests;

/// <summary>Bindings by name for the tests with endpoints of their own; 64 MB message quotas on both ends.</summary>
internal static class TestBindings
{
    private const int LargeMessage = 64 << 20;

    public static Binding Create(string transport) => transport switch
    {
        "net.tcp" => Tcp(TransferMode.Buffered),
        "net.tcp-streamed" => Tcp(TransferMode.Streamed),
        "net.tcp-streamed-request" => Tcp(TransferMode.StreamedRequest),
        "net.tcp-streamed-response" => Tcp(TransferMode.StreamedResponse),
        "text" => Text(TransferMode.Buffered),
        "text-streamed" => Text(TransferMode.Streamed),
        "text-streamed-request" => Text(TransferMode.StreamedRequest),
        "text-streamed-response" => Text(TransferMode.StreamedResponse),
        _ => throw new ArgumentOutOfRangeException(nameof(transport)),
    };

    private static Binding Tcp(TransferMode mode)
    {
        var tcp = new NetTcpBinding(SecurityMode.None) { TransferMode = mode, MaxReceivedMessageSize = LargeMessage, MaxBufferSize = LargeMessage };
        // 64 KB connection buffers: the client sizes its socket buffers by them, and with the default 8 KB a large
        // streamed message over loopback advances on delayed-ACK timers (a 2 MB echo took 14 s).
        var binding = new CustomBinding(tcp);
        binding.Elements.Find<TcpTransportBindingElement>()!.ConnectionBufferSize = 64 * 1024;
        return binding;
    }

    private static BasicHttpBinding Text(TransferMode mode) =>
        new() { TransferMode = mode, MaxReceivedMessageSize = LargeMessage, MaxBufferSize = LargeMessage };
}
