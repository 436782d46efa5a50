using Surrogate.AsmxCompare;
using Surrogate.StandInHost;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// The server process on the stand-in host (<c>Harness serve [--listen address]</c>): every endpoint on 127.0.0.1 (or
/// on the given local address, for <c>--link</c>), then <see cref="ServerControl"/>'s protocol.
/// </summary>
public static class ServeCommand
{
    public static async Task<int> RunAsync(IReadOnlyList<string> args)
    {
        var address = ServerControl.ListenAddress(args);
        var cache = new ScenarioCache();
        var service = new ComparisonService(cache);
        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.ListenAddress = address;
            b.AddService<IComparisonService>(service)
                .AddService<ISurrogateComparisonService>(service)
                .AddNetTcpEndpoint<IComparisonService>("/plain", ComparisonBindings.NetTcp())
                .AddNetTcpEndpoint<ISurrogateComparisonService>("/surrogate", ComparisonBindings.NetTcp())
                .AddHttpEndpoint<IComparisonService>("/plain/text", ComparisonBindings.BasicHttp());
        });
        await using var asmx = await AsmxHost.StartAsync(address);

        var endpoints = new Dictionary<string, string>
        {
            [ServerEndpoints.NetTcpPlain] = host.GetEndpointAddress("/plain").ToString(),
            [ServerEndpoints.NetTcpSurrogate] = host.GetEndpointAddress("/surrogate").ToString(),
            [ServerEndpoints.BasicHttpPlain] = host.GetEndpointAddress("/plain/text").ToString(),
            [ServerEndpoints.Asmx] = asmx.Address.ToString(),
        };
        return await ServerControl.RunAsync(endpoints, scenario =>
        {
            cache.Preload(scenario);
            asmx.Preload(scenario);
        });
    }
}
