using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

// The transport contract suite (tests/ServiceModel.Tests/TransportContract*.cs), unchanged, against CoreWCF services:
// the hosts of the stand-in suite (buffered and streamed net.tcp and BasicHttp, binary over HTTP) and net.uds.

public sealed class CoreWcfNetTcpTransportTests(CoreWcfNetTcpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfNetTcpShopHost>;

public sealed class CoreWcfNetTcpStreamedTransportTests(CoreWcfNetTcpStreamedShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfNetTcpStreamedShopHost>;

public sealed class CoreWcfBasicHttpTransportTests(CoreWcfBasicHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfBasicHttpShopHost>;

public sealed class CoreWcfBasicHttpStreamedTransportTests(CoreWcfBasicHttpStreamedShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfBasicHttpStreamedShopHost>;

public sealed class CoreWcfBinaryHttpTransportTests(CoreWcfBinaryHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfBinaryHttpShopHost>;

public sealed class CoreWcfUnixSocketTransportTests(CoreWcfUnixSocketShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfUnixSocketShopHost>;
