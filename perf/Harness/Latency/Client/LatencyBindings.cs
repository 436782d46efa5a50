using System.IdentityModel.Selectors;
using System.IdentityModel.Tokens;
using System.Net.Http;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using System.ServiceModel.Security;
using System.Xml;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.ServiceModel;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>Keys of the endpoint map a latency server announces (and the in-process host returns).</summary>
public static class EndpointKeys
{
    /// <summary>The side channel of one-way calls: <c>tcp://host:port</c>.</summary>
    public const string Signal = "signal";

    /// <summary>The SHA-256 thumbprint (hex) of the certificate the server made for its https endpoints.</summary>
    public const string TlsThumbprint = "tls-thumbprint";

    public static string Contract(LatencyCell cell) => cell.Data == DataKind.Stream ? "stream"
        : cell.Serializer switch { SerializerKind.Xml => "xml", SerializerKind.Surrogate => "surrogate", _ => "main" };

    public static string For(LatencyCell cell) => For(cell.Binding, cell.Security, cell.Instancing, cell.Transfer, Contract(cell));

    public static string For(BindingKind binding, Security security, Instancing instancing, Transfer transfer, string contract) =>
        $"{binding}/{security}/{instancing}/{transfer}/{contract}".ToLowerInvariant();
}

/// <summary>
/// The client's bindings: security off (or https for the TLS row), quotas and sizes raised on both ends, two-minute
/// timeouts, NetTcp with 64 KB connection buffers (the loopback stall's cure, docs/wcf.md).
/// </summary>
public static class LatencyBindings
{
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(2);

    /// <summary>
    /// The net.uds client binding, set by a build that has System.ServiceModel.UnixDomainSocket (perf/CoreWcfServer);
    /// the harness itself cannot restore that package everywhere.
    /// </summary>
    public static Func<Transfer, Binding>? UnixDomainSocket { get; set; }

    public static XmlDictionaryReaderQuotas Quotas() => new()
    {
        MaxArrayLength = 64 << 20,
        MaxStringContentLength = 64 << 20,
        MaxBytesPerRead = 1 << 20,
        MaxDepth = 64,
        MaxNameTableCharCount = 1 << 20,
    };

    public static Binding For(BindingKind kind, Security security, Transfer transfer, bool client) => kind switch
    {
        BindingKind.NetTcp => client ? SurrogateBindings.WithConnectionBufferSize(NetTcp(transfer)) : NetTcp(transfer),
        BindingKind.BasicHttp or BindingKind.HttpUds => BasicHttp(security, transfer),
        BindingKind.WSHttp => Timed(new WSHttpBinding(SecurityMode.None) { MaxReceivedMessageSize = int.MaxValue, ReaderQuotas = Quotas() }),
        BindingKind.BinaryHttp => Timed(new CustomBinding(
            new BinaryMessageEncodingBindingElement { ReaderQuotas = Quotas() },
            new HttpTransportBindingElement { MaxReceivedMessageSize = int.MaxValue, MaxBufferSize = int.MaxValue })),
        BindingKind.NetUds => UnixDomainSocket?.Invoke(transfer)
            ?? throw new InvalidOperationException("net.uds needs the System.ServiceModel.UnixDomainSocket client, which only the CoreWCF server's build has."),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, null),
    };

    /// <summary>Endpoint behaviors and credentials a cell's factory needs: the Unix socket for HttpUds, the certificate check for https.</summary>
    public static void Configure(ChannelFactory factory, LatencyCell cell, IReadOnlyDictionary<string, string> endpoints, string? unixSocket)
    {
        if (unixSocket is not null)
        {
            factory.Endpoint.EndpointBehaviors.Add(new UnixSocketHttp(unixSocket));
        }

        if (cell.Security == Security.Transport)
        {
            factory.Credentials.ServiceCertificate.SslCertificateAuthentication = new X509ServiceCertificateAuthentication
            {
                CertificateValidationMode = X509CertificateValidationMode.Custom,
                CustomCertificateValidator = new ThumbprintValidator(endpoints[EndpointKeys.TlsThumbprint]),
            };
        }
    }

    private static NetTcpBinding NetTcp(Transfer transfer) => Timed(new NetTcpBinding(SecurityMode.None)
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = Quotas(),
        TransferMode = transfer == Transfer.Streamed ? TransferMode.Streamed : TransferMode.Buffered,
    });

    private static BasicHttpBinding BasicHttp(Security security, Transfer transfer) => Timed(new BasicHttpBinding(
        security == Security.Transport ? BasicHttpSecurityMode.Transport : BasicHttpSecurityMode.None)
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = Quotas(),
        TransferMode = transfer == Transfer.Streamed ? TransferMode.Streamed : TransferMode.Buffered,
    });

    private static T Timed<T>(T binding)
        where T : Binding
    {
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = binding.CloseTimeout = Timeout;
        return binding;
    }

    /// <summary>Accepts exactly the certificate the server announced (it made it at start-up); nothing else.</summary>
    private sealed class ThumbprintValidator(string thumbprint) : X509CertificateValidator
    {
        public override void Validate(X509Certificate2 certificate)
        {
            if (!string.Equals(certificate.GetCertHashString(System.Security.Cryptography.HashAlgorithmName.SHA256), thumbprint, StringComparison.OrdinalIgnoreCase))
            {
                throw new SecurityTokenValidationException("The server's certificate is not the one it announced.");
            }
        }
    }

    /// <summary>Sends an HTTP binding's requests over a Unix domain socket, whatever host the address names.</summary>
    private sealed class UnixSocketHttp(string socketPath) : IEndpointBehavior
    {
        public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters) =>
            bindingParameters.Add(new Func<HttpClientHandler, HttpMessageHandler>(_ => new SocketsHttpHandler
            {
                ConnectCallback = async (_, cancellationToken) =>
                {
                    var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                    try
                    {
                        await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), cancellationToken).ConfigureAwait(false);
                        return new NetworkStream(socket, ownsSocket: true);
                    }
                    catch
                    {
                        socket.Dispose();
                        throw;
                    }
                },
            }));

        public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
        {
        }

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
        {
        }

        public void Validate(ServiceEndpoint endpoint)
        {
        }
    }
}
