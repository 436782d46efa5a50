using System.Net;
using System.Net.Sockets;
using System.Xml;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Surrogate.CoreWCF;
using Surrogate.CoreWCF.Compression;
using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.CoreWcfServer;

/// <summary>
/// <c>compression-serve</c> on CoreWCF: each contender's two endpoints on one net.tcp port, with the CoreWCF binding
/// of the same configuration as the client's (binary encoding, plus our compressing encoder or WCF's
/// CompressionFormat), then the harness's server protocol (<see cref="BenchServeArgs"/>).
/// </summary>
internal static class CoreWcfBenchHost
{
    public static async Task<int> RunAsync(IReadOnlyList<string> args)
    {
        BenchServeArgs serve = BenchServeArgs.Parse(args);
        int port;
        using (var probe = new TcpListener(serve.Address, 0))
        {
            probe.Start();
            port = ((IPEndPoint)probe.LocalEndpoint).Port;
        }

        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseNetTcp(serve.Address, port);
        builder.Services.AddServiceModelServices();
        builder.Services.AddDataSetSurrogate();
        var service = new OrdersBenchService();
        builder.Services.AddSingleton(new PlainBench(service));
        builder.Services.AddSingleton(new SurrogateBench(service));
        WebApplication app = builder.Build();
        app.UseServiceModel(b =>
        {
            b.AddService<PlainBench>().AddService<SurrogateBench>();
            foreach (Contender contender in serve.Contenders)
            {
                b.AddServiceEndpoint<PlainBench, IOrdersBench>(Binding(contender), BenchContract.Path(contender.Name, "plain"));
                b.AddServiceEndpoint<SurrogateBench, ISurrogateOrdersBench>(Binding(contender), BenchContract.Path(contender.Name, "surrogate"));
            }
        });
        await app.StartAsync();
        var endpoints = serve.Contenders.SelectMany(c => BenchServeArgs.Contracts.Select(contract =>
            (Key: BenchContract.Key(c.Name, contract), Address: $"net.tcp://{serve.UriHost}:{port}{BenchContract.Path(c.Name, contract)}")))
            .ToDictionary(e => e.Key, e => e.Address);
        int code = await BenchServeArgs.ServeAsync(endpoints);
        await app.StopAsync();
        return code;
    }

    /// <summary>The CoreWCF twin of the client's binding (the harness's BenchBindings): binary over net.tcp, 64 MB quotas.</summary>
    private static Binding Binding(Contender contender)
    {
        var binary = new BinaryMessageEncodingBindingElement
        {
            CompressionFormat = contender.BuiltIn switch
            {
                BuiltInCompression.GZip => CompressionFormat.GZip,
                BuiltInCompression.Deflate => CompressionFormat.Deflate,
                _ => CompressionFormat.None,
            },
        };
        XmlDictionaryReaderQuotas.Max.CopyTo(binary.ReaderQuotas);
        var tcp = new TcpTransportBindingElement { MaxReceivedMessageSize = BenchContract.MaxMessage, MaxBufferSize = BenchContract.MaxMessage };
        var binding = new CustomBinding(binary, tcp)
        {
            SendTimeout = BenchContract.Timeout,
            ReceiveTimeout = BenchContract.Timeout,
            OpenTimeout = BenchContract.Timeout,
            CloseTimeout = BenchContract.Timeout,
        };
        return BenchDecisionLogs.ServerOptions(contender) is { } options ? binding.WithCompression(options) : binding;
    }
}

// CoreWCF keeps one contract per service class: one class each, both over the shared service, many calls at once.

/// <summary>The plain contract's service.</summary>
[ServiceBehavior(InstanceContextMode = InstanceContextMode.Single, ConcurrencyMode = ConcurrencyMode.Multiple)]
internal sealed class PlainBench(OrdersBenchService inner) : IOrdersBench
{
    public Order[] GetOrders(int count) => inner.GetOrders(count);

    public System.Data.DataSet GetOrdersDataSet(int count) => inner.GetOrdersDataSet(count);

    public byte[] GetGridMessage(string kind, int size) => inner.GetGridMessage(kind, size);
}

/// <summary>The [DataSetSurrogate] contract's service.</summary>
[ServiceBehavior(InstanceContextMode = InstanceContextMode.Single, ConcurrencyMode = ConcurrencyMode.Multiple)]
internal sealed class SurrogateBench(OrdersBenchService inner) : ISurrogateOrdersBench
{
    public System.Data.DataSet GetOrdersDataSet(int count) => inner.GetOrdersDataSet(count);
}
