using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.StandInHost;
using Xunit;

namespace Surrogate.Integration.Tests;

/// <summary>One host with every transport, shared by a test class.</summary>
public sealed class HostFixture : IAsyncLifetime
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    public TestService Service { get; } = new();

    public SoapServiceHost Host { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Host = await SoapServiceHost.StartAsync(b =>
        {
            b.IncludeExceptionDetailInFaults = true;
            b.HttpUnixSocketPath = UnixSocketHttp.NewPath();
            b.AddService<ITestService>(Service)
                .AddNetTcpEndpoint<ITestService>("/tcp", Bindings.Create("tcp"))
                .AddNetTcpEndpoint<ITestService>("/tcp/second", Bindings.Create("tcp"))
                .AddNetTcpEndpoint<ITestService>("/tcp/large", Bindings.Create("tcp", large: true))
                .AddNetTcpEndpoint<ITestService>("/tcps", Bindings.Create("tcps"))
                .AddNetTcpEndpoint<ITestService>("/tcps/large", Bindings.Create("tcps", large: true))
                .AddHttpEndpoint<ITestService>("/text", Bindings.Create("text"))
                .AddHttpEndpoint<ITestService>("/bin", Bindings.Create("bin"))
                .AddHttpEndpoint<ITestService>("/text/large", Bindings.Create("text", large: true))
                .AddHttpEndpoint<ITestService>("/bin/large", Bindings.Create("bin", large: true));
        });
    }

    public async Task DisposeAsync() => await Host.DisposeAsync();

    /// <summary>The path of the endpoint serving <paramref name="transport"/> (Unix socket transports share the HTTP ones).</summary>
    public static string PathOf(string transport, bool large = false) => "/" + Bindings.HostTransport(transport) + (large ? "/large" : string.Empty);

    public ChannelFactory<ITestService> Factory(string transport, bool large = false) =>
        Bindings.Factory<ITestService>(Host, transport, PathOf(transport, large), Bindings.Create(transport, large));
}

public static class Bindings
{
    /// <summary>net.tcp buffered, net.tcp streamed, BasicHttp text, binary over HTTP; the two HTTP ones over a Unix socket.</summary>
    public static readonly TheoryData<string> Transports = new() { "tcp", "tcps", "text", "bin", "uds-text", "uds-bin" };

    public static bool IsTcp(string transport) => transport.StartsWith("tcp", StringComparison.Ordinal);

    public static bool IsUnixSocket(string transport) => transport.StartsWith("uds-", StringComparison.Ordinal);

    /// <summary>The transport the host serves for <paramref name="transport"/>: a Unix socket one is its HTTP one.</summary>
    public static string HostTransport(string transport) => IsUnixSocket(transport) ? transport["uds-".Length..] : transport;

    /// <summary>
    /// A client factory for the endpoint at <paramref name="path"/>. Over a Unix socket the address names a TCP port
    /// nobody listens on, so a call that went over TCP instead could not succeed.
    /// </summary>
    public static ChannelFactory<T> Factory<T>(SoapServiceHost host, string transport, string path, Binding binding)
    {
        if (!IsUnixSocket(transport))
        {
            return new ChannelFactory<T>(binding, new EndpointAddress(host.GetEndpointAddress(path)));
        }

        string socket = host.HttpUnixSocketPath ?? throw new InvalidOperationException("The host serves no Unix socket.");
        var factory = new ChannelFactory<T>(binding, new EndpointAddress(new Uri("http://localhost:1" + path)));
        factory.Endpoint.EndpointBehaviors.Add(new UnixSocketHttp(socket));
        return factory;
    }

    public static Binding Create(string transport, bool large = false, int? maxStringContentLength = null)
    {
        Binding binding = HostTransport(transport) switch
        {
            "tcp" => Tcp(large),
            "tcps" => Tcp(large, TransferMode.Streamed),
            "text" => Text(large),
            "bin" => Binary(large),
            _ => throw new ArgumentOutOfRangeException(nameof(transport)),
        };
        if (maxStringContentLength is int max)
        {
            BindingElementCollection elements = binding.CreateBindingElements();
            System.Xml.XmlDictionaryReaderQuotas quotas = elements.Find<MessageEncodingBindingElement>() switch
            {
                BinaryMessageEncodingBindingElement b => b.ReaderQuotas,
                TextMessageEncodingBindingElement t => t.ReaderQuotas,
                _ => throw new NotSupportedException(),
            };
            quotas.MaxStringContentLength = max;
            binding = new CustomBinding(elements);
        }

        binding.OpenTimeout = binding.SendTimeout = binding.ReceiveTimeout = binding.CloseTimeout = HostFixture.Timeout;
        return binding;
    }

    private static NetTcpBinding Tcp(bool large, TransferMode mode = TransferMode.Buffered)
    {
        var binding = new NetTcpBinding(SecurityMode.None) { TransferMode = mode };
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = 256 * 1024 * 1024;
            binding.ReaderQuotas.MaxArrayLength = binding.ReaderQuotas.MaxStringContentLength = 256 * 1024 * 1024;
        }

        return binding;
    }

    private static BasicHttpBinding Text(bool large)
    {
        var binding = new BasicHttpBinding();
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = 256 * 1024 * 1024;
            binding.ReaderQuotas.MaxArrayLength = binding.ReaderQuotas.MaxStringContentLength = 256 * 1024 * 1024;
        }

        return binding;
    }

    private static CustomBinding Binary(bool large)
    {
        var encoding = new BinaryMessageEncodingBindingElement();
        var transport = new HttpTransportBindingElement();
        if (large)
        {
            transport.MaxReceivedMessageSize = transport.MaxBufferSize = 256 * 1024 * 1024;
            encoding.ReaderQuotas.MaxArrayLength = encoding.ReaderQuotas.MaxStringContentLength = 256 * 1024 * 1024;
        }

        return new CustomBinding(encoding, transport);
    }
}
