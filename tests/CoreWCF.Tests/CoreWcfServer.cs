using System.Net;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Surrogate.Integration.Tests;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// A CoreWCF service host for the tests: net.tcp or HTTP on Kestrel at 127.0.0.1 (a free port), or Unix domain sockets
/// (CoreWCF.UnixDomainSocket, one generic host and socket file per endpoint: the client dials the socket its address
/// names). Logging is off: Kestrel logs a NullReferenceException of CoreWCF's framing handshake after each
/// Unix socket reply, an upstream quirk that does not affect the call.
/// </summary>
public sealed class CoreWcfServer : IAsyncDisposable
{
    private readonly IReadOnlyList<IHost> _hosts;
    private readonly Func<string, Uri> _addresses;

    private CoreWcfServer(IReadOnlyList<IHost> hosts, Func<string, Uri> addresses, IReadOnlyDictionary<string, string> sockets, int port)
    {
        _hosts = hosts;
        _addresses = addresses;
        Sockets = sockets;
        Port = port;
    }

    /// <summary>The TCP port of net.tcp or HTTP endpoints (0 for Unix sockets).</summary>
    public int Port { get; }

    /// <summary>The socket file of each endpoint path (Unix sockets only).</summary>
    public IReadOnlyDictionary<string, string> Sockets { get; }

    /// <summary>
    /// Starts a host for <paramref name="scheme"/> (<c>net.tcp</c>, <c>http</c> or <c>net.uds</c>) with the endpoint
    /// <paramref name="paths"/>; <paramref name="endpoints"/> adds services and endpoints, passing each endpoint the
    /// address the second argument makes of its path (on Unix sockets, <paramref name="endpoints"/> runs once per
    /// endpoint's host and the other paths give an empty address: add only endpoints whose address is not empty).
    /// <paramref name="allowSynchronousIO"/> sets Kestrel's AllowSynchronousIO, which HTTP endpoints with a streamed
    /// transfer mode need on CoreWCF 1.9.1 (docs/wcf.md, "Streamed HTTP on CoreWCF").
    /// </summary>
    public static async Task<CoreWcfServer> StartAsync(
        string scheme,
        IReadOnlyList<string> paths,
        Action<IServiceCollection> services,
        Action<IServiceBuilder, Func<string, string>> endpoints,
        bool allowSynchronousIO = false)
    {
        if (scheme == "net.uds")
        {
            // One generic host (and socket) per endpoint: with several sockets on one host, sessions were rejected here.
            Dictionary<string, string> sockets = paths.ToDictionary(p => p, _ => UnixSocketHttp.NewPath());
            var hosts = new List<IHost>();
            foreach ((string path, string socket) in sockets)
            {
                IHost uds = new HostBuilder()
                    .ConfigureLogging(l => l.ClearProviders())
                    .UseUnixDomainSocket(o => o.Listen(new Uri("net.uds://" + socket)))
                    .ConfigureServices(s =>
                    {
                        s.AddServiceModelServices();
                        services(s);
                    })
                    .Build();
                uds.UseServiceModel(b => endpoints(b, p => p == path ? "net.uds://" + socket : string.Empty));
                await uds.StartAsync();
                hosts.Add(uds);
            }

            return new CoreWcfServer(hosts, path => new Uri("net.uds://" + sockets[path]), sockets, port: 0);
        }

        WebApplicationBuilder web = WebApplication.CreateSlimBuilder();
        web.Logging.ClearProviders();
        if (scheme == "net.tcp")
        {
            web.WebHost.UseNetTcp(IPAddress.Loopback, 0);
        }
        else
        {
            web.WebHost.ConfigureKestrel(k =>
            {
                k.Limits.MaxRequestBodySize = null; // each endpoint has its own MaxReceivedMessageSize
                k.AllowSynchronousIO = allowSynchronousIO;
                k.Listen(IPAddress.Loopback, 0);
            });
        }

        web.Services.AddServiceModelServices();
        services(web.Services);
        WebApplication app = web.Build();
        app.UseServiceModel(b => endpoints(b, path => path));
        await app.StartAsync();
        int port = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses
            .Select(a => new Uri(a.Replace("*", "localhost", StringComparison.Ordinal)).Port).First();
        return new CoreWcfServer([app], path => new UriBuilder(scheme, "127.0.0.1", port, path).Uri, new Dictionary<string, string>(), port);
    }

    /// <summary>The absolute address of the endpoint at <paramref name="path"/>.</summary>
    public Uri GetEndpointAddress(string path) => _addresses(path);

    public async ValueTask DisposeAsync()
    {
        foreach (IHost host in _hosts)
        {
            using (var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5)))
            {
                await host.StopAsync(timeout.Token);
            }

            host.Dispose();
        }
        foreach (string socket in Sockets.Values)
        {
            File.Delete(socket);
        }
    }
}
