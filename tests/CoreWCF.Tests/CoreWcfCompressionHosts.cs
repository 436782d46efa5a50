using ClientCompressionFormat = System.ServiceModel.Channels.CompressionFormat;
using CoreWCF.Channels;
using Microsoft.Extensions.DependencyInjection;
using Surrogate.CoreWCF;
using Surrogate.Perf.Scenarios;
using Surrogate.Tests.Fixtures;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The compression suite's host on CoreWCF: each variant's endpoint with the CoreWCF binding of the same configuration.</summary>
public abstract class CoreWcfCompressionHost : CompressionHost
{
    public override bool ServiceKnowsItsPeer => true;

    protected override async Task<IShopServer> StartAsync(IReadOnlyList<CompressionVariant> variants)
    {
        CoreWcfServer server = await CoreWcfServer.StartAsync(IsNetTcp ? "net.tcp" : "http", [.. variants.Select(v => v.Path)], services =>
        {
            services.AddDataSetSurrogate();
            services.AddSingleton(Service);
        }, (b, address) =>
        {
            b.AddService<OrderService>();
            foreach (CompressionVariant variant in variants)
            {
                b.AddServiceEndpoint<OrderService, IOrderService>(ServiceBinding(variant), address(variant.Path));
            }
        });
        return new CoreWcfCompressionServer(server);
    }

    private Binding ServiceBinding(CompressionVariant variant)
    {
        var binary = new BinaryMessageEncodingBindingElement
        {
            CompressionFormat = variant.BuiltIn switch
            {
                ClientCompressionFormat.GZip => CompressionFormat.GZip,
                ClientCompressionFormat.Deflate => CompressionFormat.Deflate,
                _ => CompressionFormat.None,
            },
        };
        CompressionVariant.SetQuotas(binary.ReaderQuotas);
        TransportBindingElement transport = IsNetTcp
            ? new TcpTransportBindingElement { TransferMode = variant.Streamed ? global::CoreWCF.TransferMode.Streamed : global::CoreWCF.TransferMode.Buffered, MaxBufferSize = CompressionVariant.LargeMessage }
            : new HttpTransportBindingElement { MaxBufferSize = CompressionVariant.LargeMessage };
        transport.MaxReceivedMessageSize = CompressionVariant.LargeMessage;
        var binding = new CustomBinding(binary, transport);
        return variant.OptionsWith(Log) is { } options ? binding.WithCompression(options) : binding;
    }

    private sealed class CoreWcfCompressionServer(CoreWcfServer server) : IShopServer
    {
        public Uri GetEndpointAddress(string path) => server.GetEndpointAddress(path);

        public ICountingRelay CreateRelay() => new CountingProxy(server.Port);

        public ValueTask DisposeAsync() => server.DisposeAsync();
    }
}

public sealed class CoreWcfNetTcpCompressionHost : CoreWcfCompressionHost
{
    public override bool IsNetTcp => true;

    public override string HostName => "CoreWCF net.tcp";
}

public sealed class CoreWcfHttpCompressionHost : CoreWcfCompressionHost
{
    public override bool IsNetTcp => false;

    public override string HostName => "CoreWCF HTTP";
}

/// <summary>
/// CoreWCF's net.tcp refuses a content type it does not serve by closing the connection without a framing fault
/// (issue #1717); here that is prompt, and the client reports that the server rejected the session, without naming
/// the content types.
/// </summary>
public sealed class CoreWcfNetTcpCompressionTests(CoreWcfNetTcpCompressionHost host, ITestOutputHelper output)
    : StreamedCompressionContract(host, output), IClassFixture<CoreWcfNetTcpCompressionHost>
{
    // "The server at net.tcp://… rejected the session-establishment request": the service, not the content type.
    protected override void ExpectPlainClientError(Exception outcome) => AssertRefused(outcome, "net.tcp", namesContentType: false);

    protected override void ExpectCompressingClientError(Exception outcome) => AssertRefused(outcome, "net.tcp", namesContentType: false);
}

/// <summary>CoreWCF's HTTP answers a content type it does not serve with 415: the client's ProtocolException names both.</summary>
public sealed class CoreWcfHttpCompressionTests(CoreWcfHttpCompressionHost host, ITestOutputHelper output)
    : CompressionContract(host, output), IClassFixture<CoreWcfHttpCompressionHost>
{
    protected override void ExpectPlainClientError(Exception outcome) => AssertRefused(outcome, "http");

    protected override void ExpectCompressingClientError(Exception outcome)
    {
        AssertRefused(outcome, "http");
        Assert.Contains("surrogate-compressed", outcome.Message, StringComparison.Ordinal);
    }
}

/// <summary>WCF's own CompressionFormat (GZip, Deflate) between the client and CoreWCF: the static baseline of the benchmarks.</summary>
public abstract class BuiltInCompressionContract(CompressionHost host, ITestOutputHelper output)
{
    public static TheoryData<string> BuiltInVariants() => new(CompressionVariant.BuiltInGZip.Name, CompressionVariant.BuiltInDeflate.Name);

    [Theory]
    [MemberData(nameof(BuiltInVariants))]
    public async Task Orders_and_datasets_round_trip_compressed(string name)
    {
        CompressionVariant variant = CompressionVariant.Named(name);
        var factory = host.CreateFactory(variant);
        try
        {
            IOrderService client = factory.CreateChannel();
            host.Relay.Reset();
            Order[] orders = await client.GetOrdersAsync(1_000);
            Assert.Equal(MetzgerOrders.Take(1_000)[999].CreditCardNumber, orders[999].CreditCardNumber);
            Assert.False(CountingProxy.Contains(host.Relay.Received, orders[0].CreditCardNumber!), "the reply should be compressed");
            long orderBytes = host.Relay.Received.Length;
            System.Data.DataSet dataSet = OrdersScenario.Create(orders: 1_000, seed: 7);
            host.Relay.Reset();
            DataSetAssert.Equivalent(dataSet, await client.EchoDataSetAsync(dataSet));
            output.WriteLine($"{host.HostName} {name}: reply bytes on the wire: 1,000 orders {orderBytes:N0}; Orders DataSet (1,000) plain {host.Relay.Received.Length:N0}");
        }
        finally
        {
            factory.Abort();
        }
    }
}

public sealed class CoreWcfNetTcpBuiltInCompressionTests(CoreWcfNetTcpCompressionHost host, ITestOutputHelper output)
    : BuiltInCompressionContract(host, output), IClassFixture<CoreWcfNetTcpCompressionHost>;

public sealed class CoreWcfHttpBuiltInCompressionTests(CoreWcfHttpCompressionHost host, ITestOutputHelper output)
    : BuiltInCompressionContract(host, output), IClassFixture<CoreWcfHttpCompressionHost>;
