using System.Net;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Contracts;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.StandInHost;

namespace Surrogate.Perf.Harness.Latency.Hosting;

/// <summary>
/// The latency service on the stand-in host: one host per instancing it offers (Single: one shared instance; PerCall:
/// a new one per call), the data-contract and [DataSetSurrogate] contracts on NetTcp (buffered, streamed), BasicHttp
/// (buffered, streamed), WSHttp and binary HTTP, and BasicHttp also on a Unix socket (HttpUds).
/// </summary>
public sealed class StandInLatencyHost : ILatencyHost
{
    private static readonly (BindingKind Binding, Transfer Transfer)[] Offered =
    [
        (BindingKind.NetTcp, Transfer.Buffered), (BindingKind.NetTcp, Transfer.Streamed),
        (BindingKind.BasicHttp, Transfer.Buffered), (BindingKind.BasicHttp, Transfer.Streamed),
        (BindingKind.WSHttp, Transfer.Buffered), (BindingKind.BinaryHttp, Transfer.Buffered),
    ];

    private readonly SignalHub hub;
    private readonly List<SoapServiceHost> hosts = [];
    private readonly Dictionary<string, string> endpoints = [];

    private StandInLatencyHost(SignalHub hub)
    {
        this.hub = hub;
        endpoints[EndpointKeys.Signal] = hub.Uri;
    }

    public IReadOnlyDictionary<string, string> Endpoints => endpoints;

    public static async Task<ILatencyHost> StartAsync(IPAddress address)
    {
        var host = new StandInLatencyHost(new SignalHub(address));
        try
        {
            foreach (Instancing instancing in new[] { Instancing.Single, Instancing.PerCall })
            {
                await host.StartOneAsync(address, instancing);
            }
        }
        catch
        {
            await host.DisposeAsync();
            throw;
        }

        return host;
    }

    public Task<string?> OpenAsync(string key) => Task.FromResult(endpoints.GetValueOrDefault(key));

    public async ValueTask DisposeAsync()
    {
        foreach (SoapServiceHost host in hosts)
        {
            await host.DisposeAsync();
        }

        hub.Dispose();
    }

    private async Task StartOneAsync(IPAddress address, Instancing instancing)
    {
        string socket = Path.Combine(Path.GetTempPath(), $"dss-lat-{Environment.ProcessId}-{instancing.ToString().ToLowerInvariant()}.sock");
        File.Delete(socket);
        var paths = new List<(string Key, string Path, bool Http)>();
        SoapServiceHost host = await SoapServiceHost.StartAsync(b =>
        {
            b.ListenAddress = address;
            b.HttpUnixSocketPath = socket;
            if (instancing == Instancing.Single)
            {
                var service = new LatencyService(hub);
                b.AddService<ILatencyService>(service).AddService<ISurrogateLatencyService>(service);
            }
            else
            {
                b.AddService<ILatencyService>(() => new LatencyService(hub)).AddService<ISurrogateLatencyService>(() => new LatencyService(hub));
            }

            foreach (var (binding, transfer) in Offered)
            {
                var main = $"/{instancing}/main/{binding}-{transfer}".ToLowerInvariant();
                var surrogate = $"/{instancing}/surrogate/{binding}-{transfer}".ToLowerInvariant();
                var wcf = LatencyBindings.For(binding, Security.None, transfer, client: false);
                if (binding == BindingKind.NetTcp)
                {
                    b.AddNetTcpEndpoint<ILatencyService>(main, wcf).AddNetTcpEndpoint<ISurrogateLatencyService>(surrogate, wcf);
                }
                else
                {
                    b.AddHttpEndpoint<ILatencyService>(main, wcf).AddHttpEndpoint<ISurrogateLatencyService>(surrogate, wcf);
                }

                paths.Add((EndpointKeys.For(binding, Security.None, instancing, transfer, "main"), main, binding != BindingKind.NetTcp));
                paths.Add((EndpointKeys.For(binding, Security.None, instancing, transfer, "surrogate"), surrogate, binding != BindingKind.NetTcp));
            }
        });
        hosts.Add(host);
        foreach (var (key, path, http) in paths)
        {
            string uri = host.GetEndpointAddress(path).ToString();
            endpoints[key] = uri;
            if (http && key.StartsWith("basichttp/", StringComparison.Ordinal))
            {
                endpoints["httpuds" + key["basichttp".Length..]] = socket + "|" + uri;
            }
        }
    }
}
