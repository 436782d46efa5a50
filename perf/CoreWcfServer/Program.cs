using System.Data;
using System.Net;
using System.Net.Sockets;
using System.Xml;
using CoreWCF;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Surrogate.AsmxCompare;
using Surrogate.CoreWCF;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.CoreWcfServer;
using Surrogate.Perf.Harness.Latency.Hosting;
using Surrogate.Perf.Scenarios;

// The comparison's server on CoreWCF (`Harness --server corewcf` starts it as `dotnet CoreWcfServer.dll [--listen a]`):
// the endpoints of `Harness serve` (net.tcp /plain and /surrogate, BasicHttp /plain/text, and the ASMX-style host),
// then the same control protocol on stdin/stdout. `latency-serve` and `latency-client` are the latency matrix's server
// and client on this build (the client code is the harness's, with the net.uds client this build can restore);
// `compression-serve` is the compression benchmarks' server.
switch (args.FirstOrDefault())
{
    case "latency-serve":
        return await LatencyServeCommand.RunAsync(args[1..], CoreWcfLatencyHost.StartAsync);
    case "latency-client":
        LatencyBindings.UnixDomainSocket = CoreWcfLatencyHost.UnixDomainSocketClient;
        return LatencyClientCommand.Run(args[1..], CoreWcfLatencyHost.StartAsync);
    case "compression-serve":
        return await CoreWcfBenchHost.RunAsync(args[1..]);
}

IPAddress address = ServerControl.ListenAddress(args);
var cache = new ScenarioCache();
var service = new ComparisonService(cache);
int tcpPort = FreePort(address), httpPort = FreePort(address);

WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
builder.Logging.ClearProviders();
builder.WebHost.UseNetTcp(address, tcpPort);
builder.WebHost.ConfigureKestrel(k =>
{
    k.Limits.MaxRequestBodySize = null; // the binding's MaxReceivedMessageSize applies
    k.Listen(address, httpPort);
});
builder.Services.AddServiceModelServices();
builder.Services.AddDataSetSurrogate();
builder.Services.AddSingleton(new PlainService(service));
builder.Services.AddSingleton(new SurrogateService(service));
WebApplication app = builder.Build();
app.UseServiceModel(b =>
{
    b.AddService<PlainService>().AddService<SurrogateService>();
    b.AddServiceEndpoint<PlainService, IComparisonService>(Bindings.NetTcp(), "/plain");
    b.AddServiceEndpoint<SurrogateService, ISurrogateComparisonService>(Bindings.NetTcp(), "/surrogate");
    b.AddServiceEndpoint<PlainService, IComparisonService>(Bindings.BasicHttp(), "/plain/text");
});
await app.StartAsync();
await using AsmxHost asmx = await AsmxHost.StartAsync(address);

string host = address.AddressFamily == AddressFamily.InterNetworkV6 ? $"[{address}]" : address.ToString();
var endpoints = new Dictionary<string, string>
{
    [ServerEndpoints.NetTcpPlain] = $"net.tcp://{host}:{tcpPort}/plain",
    [ServerEndpoints.NetTcpSurrogate] = $"net.tcp://{host}:{tcpPort}/surrogate",
    [ServerEndpoints.BasicHttpPlain] = $"http://{host}:{httpPort}/plain/text",
    [ServerEndpoints.Asmx] = asmx.Address.ToString(),
};
int code = await ServerControl.RunAsync(endpoints, scenario =>
{
    cache.Preload(scenario);
    asmx.Preload(scenario);
});
await app.StopAsync();
return code;

// A port free right now on the address (the listeners bind it moments later; nothing else races for it here).
static int FreePort(IPAddress address)
{
    using var probe = new TcpListener(address, 0);
    probe.Start();
    return ((IPEndPoint)probe.LocalEndpoint).Port;
}

/// <summary>The harness's bindings on the service side: maximum quotas, two-minute timeouts, no security.</summary>
internal static class Bindings
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(2);

    public static NetTcpBinding NetTcp() => new(SecurityMode.None)
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = XmlDictionaryReaderQuotas.Max,
        SendTimeout = Timeout,
        ReceiveTimeout = Timeout,
        OpenTimeout = Timeout,
        CloseTimeout = Timeout,
    };

    public static BasicHttpBinding BasicHttp() => new()
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = XmlDictionaryReaderQuotas.Max,
        SendTimeout = Timeout,
        ReceiveTimeout = Timeout,
        OpenTimeout = Timeout,
        CloseTimeout = Timeout,
    };
}

// CoreWCF keeps one contract name per service, and both contracts are builds of one wire contract: one class each.

/// <summary>The plain contract's service.</summary>
internal sealed class PlainService(ComparisonService inner) : IComparisonService
{
    public DataSet GetDataSet(string scenario) => inner.GetDataSet(scenario);

    public SmallObject[] GetObjects(int count) => inner.GetObjects(count);

    public DataSet LoadDataSet(DataSet ds) => inner.LoadDataSet(ds);
}

/// <summary>The [DataSetSurrogate] contract's service.</summary>
internal sealed class SurrogateService(ComparisonService inner) : ISurrogateComparisonService
{
    public DataSet GetDataSet(string scenario) => inner.GetDataSet(scenario);

    public SmallObject[] GetObjects(int count) => inner.GetObjects(count);

    public DataSet LoadDataSet(DataSet ds) => inner.LoadDataSet(ds);
}
