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
