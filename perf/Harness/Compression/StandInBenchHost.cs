using Surrogate.StandInHost;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// <c>compression-serve</c> on the stand-in host: each contender's endpoints with the client's own binding, except
/// those that cannot work on it (WCF's CompressionFormat), which it does not announce.
/// </summary>
public static class StandInBenchHost
{
    public static async Task<int> RunAsync(IReadOnlyList<string> args)
    {
        BenchServeArgs serve = BenchServeArgs.Parse(args);
        var service = new OrdersBenchService();
        var served = serve.Contenders.Where(c => c.CannotWork("soaphost") is null).ToList();
        await using SoapServiceHost host = await SoapServiceHost.StartAsync(b =>
        {
            b.ListenAddress = serve.Address;
            b.AddService<IOrdersBench>(service).AddService<ISurrogateOrdersBench>(service);
            foreach (Contender contender in served)
            {
                b.AddNetTcpEndpoint<IOrdersBench>(BenchContract.Path(contender.Name, "plain"), BenchBindings.StandInService(contender))
                    .AddNetTcpEndpoint<ISurrogateOrdersBench>(BenchContract.Path(contender.Name, "surrogate"), BenchBindings.StandInService(contender));
            }
        });

        var endpoints = served.SelectMany(c => BenchServeArgs.Contracts.Select(contract =>
            (Key: BenchContract.Key(c.Name, contract), Address: host.GetEndpointAddress(BenchContract.Path(c.Name, contract)).ToString())))
            .ToDictionary(e => e.Key, e => e.Address);
        return await BenchServeArgs.ServeAsync(endpoints);
    }
}
