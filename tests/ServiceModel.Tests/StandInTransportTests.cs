using System.ServiceModel;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

public sealed class NetTcpTransportTests(NetTcpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<NetTcpShopHost>;

public sealed class BasicHttpTransportTests(BasicHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<BasicHttpShopHost>;

public sealed class NetTcpStreamedTransportTests(NetTcpStreamedShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<NetTcpStreamedShopHost>;

public sealed class BasicHttpStreamedTransportTests(BasicHttpStreamedShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<BasicHttpStreamedShopHost>;

public sealed class BinaryHttpTransportTests(BinaryHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<BinaryHttpShopHost>;

public sealed class UnixSocketBasicHttpTransportTests(UnixSocketBasicHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<UnixSocketBasicHttpShopHost>;

public sealed class UnixSocketBinaryHttpTransportTests(UnixSocketBinaryHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<UnixSocketBinaryHttpShopHost>;

/// <summary>net.tcp binary with both ends writing compressed row blocks (zstd): the whole suite, and the reply shrinks.</summary>
public sealed class NetTcpBlockCompressionTransportTests(NetTcpBlockCompressionShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<NetTcpBlockCompressionShopHost>
{
    [Fact]
    public async Task Compressed_row_blocks_travel()
    {
        var expected = Surrogate.Tests.Fixtures.FidelityFixtures.Orders(2000);
        var raw = DataSetSerializer.Serialize(expected).Length;
        IShop client = Host.CreateFactory<IShop>(ShopHost.NewLarge).CreateChannel();
        Host.Proxy.Reset();
        var actual = await client.EchoAsync(Surrogate.Tests.Fixtures.FidelityFixtures.Orders(2000));
        Surrogate.Tests.Fixtures.DataSetAssert.Equivalent(expected, actual);
        Assert.True(Host.Proxy.Received.Length < raw * 0.7, $"{Host.Proxy.Received.Length} reply bytes for a {raw}-byte raw payload");
        ((IClientChannel)client).Abort();
    }
}

public sealed class NetTcpBlockCompressionShopHost : NetTcpShopHost
{
    public override string TransportName => "net.tcp binary, compressed row blocks";

    public override SurrogateOptions? PayloadOptions { get; } = new() { BlockCodec = RowBlockCodec.Zstd };
}
