using System.Net;
using System.ServiceModel;
using System.ServiceModel.Description;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;
using Surrogate.StandInHost.Dispatch;
using Surrogate.StandInHost.Transport;

namespace Surrogate.StandInHost;

/// <summary>
/// A small SOAP service host on 127.0.0.1 (or another local address, see <see cref="SoapServiceHostBuilder.ListenAddress"/>)
/// that the .NET WCF client (<c>ChannelFactory&lt;T&gt;</c>) calls unchanged: net.tcp (the .NET Message Framing
/// protocol, buffered and streamed, on a socket listener) and HTTP on Kestrel (on TCP, and optionally on a Unix domain
/// socket). It stands in for CoreWCF, which the package source lacks, and is built from the WCF client package's own
/// encoders, contract descriptions and operation formatters.
/// </summary>
/// <remarks>
/// <para>Dispatch: each endpoint's contract comes from <see cref="ContractDescription.GetContract(Type)"/>; its
/// contract and operation behaviors (attributes such as <c>[DataSetSurrogate]</c>) run in WCF's dispatcher order with
/// <see cref="DataContractSerializerOperationBehavior"/> last, against a real <c>DispatchRuntime</c>, whose
/// <c>MessageInspectors</c> (<c>IDispatchMessageInspector</c>) the host calls. Requests and replies are read and
/// written by WCF's own operation formatter (built through the public client half of the serializer behavior over a
/// mirrored operation description), so the serializer behavior's <c>SerializationSurrogateProvider</c>,
/// <c>MaxItemsInObjectGraph</c> and <c>DataContractResolver</c> apply. Data-contract operations only (no message
/// contracts, no <c>[XmlSerializerFormat]</c>); sync, Task-returning and one-way methods, out and ref parameters.
/// <c>IParameterInspector</c>s are not run: the client package's reference surface has no
/// <c>DispatchOperation.ParameterInspectors</c>.</para>
/// <para>Errors: an exception while reading the request, in the operation, or while writing the reply reaches the
/// caller as a SOAP fault (<see cref="FaultException"/>). A net.tcp preamble the host cannot serve (unknown path,
/// other encoding, other mode, transport security) gets a framing fault at once.</para>
/// <example>
/// <code>
/// await using var host = await SoapServiceHost.StartAsync(b => b
///     .AddService&lt;IOrders&gt;(new OrdersService())
///     .AddNetTcpEndpoint&lt;IOrders&gt;("/orders", new NetTcpBinding(SecurityMode.None))
///     .AddHttpEndpoint&lt;IOrders&gt;("/orders/text", new BasicHttpBinding()));
/// Uri address = host.GetEndpointAddress("/orders"); // net.tcp://127.0.0.1:{port}/orders
/// </code>
/// </example>
/// </remarks>
public sealed class SoapServiceHost : IAsyncDisposable
{
    private readonly NetTcpListener? tcp;
    private readonly WebApplication? http;
    private readonly Dictionary<string, Uri> addresses;

    private SoapServiceHost(NetTcpListener? tcp, WebApplication? http, Dictionary<string, Uri> addresses)
    {
        this.tcp = tcp;
        this.http = http;
        this.addresses = addresses;
    }

    /// <summary>The Unix domain socket that also serves the HTTP endpoints, or null (see <see cref="SoapServiceHostBuilder.HttpUnixSocketPath"/>).</summary>
    public string? HttpUnixSocketPath { get; private init; }

    /// <summary>The port of the net.tcp listener, or 0 when the host has no net.tcp endpoint.</summary>
    public int NetTcpPort { get; private init; }

    /// <summary>The port of the HTTP listener, or 0 when the host has no HTTP endpoint.</summary>
    public int HttpPort { get; private init; }

    /// <summary>Configures, builds and starts a host; the returned host is listening.</summary>
    /// <exception cref="InvalidOperationException">A contract cannot be served (no service, unsupported operation).</exception>
    public static async Task<SoapServiceHost> StartAsync(Action<SoapServiceHostBuilder> configure, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(configure);
        var builder = new SoapServiceHostBuilder();
        configure(builder);
        if (builder.Endpoints.Count == 0)
        {
            throw new InvalidOperationException("The host has no endpoint; add one with AddNetTcpEndpoint or AddHttpEndpoint.");
        }

        var tcpEndpoints = new Dictionary<string, SoapEndpoint>(StringComparer.OrdinalIgnoreCase);
        var httpEndpoints = new Dictionary<string, SoapEndpoint>(StringComparer.OrdinalIgnoreCase);
        string host = builder.ListenAddress.ToString();
        foreach (SoapServiceHostBuilder.EndpointRegistration registration in builder.Endpoints)
        {
            int port = registration.Scheme == "net.tcp" ? builder.NetTcpPort : builder.HttpPort;
            var serviceEndpoint = new ServiceEndpoint(
                ContractDescription.GetContract(registration.Contract),
                registration.Binding,
                new EndpointAddress(new UriBuilder(registration.Scheme, host, port, registration.Path).Uri));
            registration.Configure?.Invoke(serviceEndpoint);
            ContractDispatcher dispatcher = ContractDispatcher.Build(
                serviceEndpoint, builder.ServiceFor(registration.Contract), builder.IncludeExceptionDetailInFaults);
            var endpoint = new SoapEndpoint(registration.Path, registration.Binding, dispatcher);
            (registration.Scheme == "net.tcp" ? tcpEndpoints : httpEndpoints).Add(registration.Path, endpoint);
        }

        ILogger logger = builder.LoggerFactory.CreateLogger<SoapServiceHost>();
        NetTcpListener? tcp = null;
        WebApplication? http = null;
        try
        {
            if (tcpEndpoints.Count > 0)
            {
                tcp = new NetTcpListener(builder.ListenAddress, builder.NetTcpPort, new NetTcpFramingHandler(tcpEndpoints, logger), logger);
                tcp.Start();
            }

            if (httpEndpoints.Count > 0)
            {
                http = await StartHttpAsync(builder.ListenAddress, builder.HttpPort, builder.HttpUnixSocketPath, new HttpSoapHandler(httpEndpoints, logger), cancellationToken).ConfigureAwait(false);
            }
        }
        catch
        {
            await DisposeAsync(tcp, http, null).ConfigureAwait(false);
            throw;
        }

        int tcpPort = tcp?.Port ?? 0;
        int httpPort = http is null ? 0 : new Uri(http.Urls.First(u => !u.StartsWith("http://unix:", StringComparison.Ordinal))).Port;
        var addresses = new Dictionary<string, Uri>(StringComparer.OrdinalIgnoreCase);
        foreach (string path in tcpEndpoints.Keys)
        {
            addresses[path] = new UriBuilder("net.tcp", host, tcpPort, path).Uri;
        }

        foreach (string path in httpEndpoints.Keys)
        {
            addresses.TryAdd(path, new UriBuilder("http", host, httpPort, path).Uri);
        }

        return new SoapServiceHost(tcp, http, addresses)
        {
            NetTcpPort = tcpPort,
            HttpPort = httpPort,
            HttpUnixSocketPath = http is null ? null : builder.HttpUnixSocketPath,
        };
    }

    /// <summary>
    /// The absolute address of the endpoint at <paramref name="path"/> with the real port, e.g.
    /// <c>net.tcp://127.0.0.1:49152/orders</c>. When a net.tcp and an HTTP endpoint share a path, the net.tcp one is returned.
    /// </summary>
    /// <exception cref="ArgumentException">No endpoint has that path.</exception>
    public Uri GetEndpointAddress(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        string normalized = path.StartsWith('/') ? path : "/" + path;
        return addresses.TryGetValue(normalized, out Uri? address)
            ? address
            : throw new ArgumentException($"No endpoint is hosted at '{normalized}'.", nameof(path));
    }

    /// <summary>Stops listening, closes open connections, lets HTTP calls in progress finish for up to five seconds.</summary>
    public ValueTask DisposeAsync() => DisposeAsync(tcp, http, HttpUnixSocketPath);

    private static async ValueTask DisposeAsync(NetTcpListener? tcp, WebApplication? http, string? unixSocketPath)
    {
        if (tcp is not null)
        {
            await tcp.DisposeAsync().ConfigureAwait(false);
        }

        if (http is not null)
        {
            using (var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5)))
            {
                await http.StopAsync(timeout.Token).ConfigureAwait(false);
            }

            await http.DisposeAsync().ConfigureAwait(false);
        }

        if (unixSocketPath is not null)
        {
            File.Delete(unixSocketPath);
        }
    }

    private static async Task<WebApplication> StartHttpAsync(IPAddress address, int port, string? unixSocketPath, HttpSoapHandler handler, CancellationToken cancellationToken)
    {
        WebApplicationBuilder web = WebApplication.CreateSlimBuilder();
        web.Logging.ClearProviders();
        web.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxRequestBodySize = null; // Each endpoint enforces its own MaxReceivedMessageSize.
            kestrel.Listen(address, port, listen => listen.Protocols = HttpProtocols.Http1);
            if (unixSocketPath is not null)
            {
                kestrel.ListenUnixSocket(unixSocketPath, listen => listen.Protocols = HttpProtocols.Http1);
            }
        });
        WebApplication app = web.Build();
        app.Run(handler.HandleAsync);
        try
        {
            await app.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await app.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        return app;
    }
}
