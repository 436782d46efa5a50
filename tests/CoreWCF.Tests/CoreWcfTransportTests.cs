using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

// The transport contract suite (tests/ServiceModel.Tests/TransportContract*.cs), unchanged, against CoreWCF services.
// Not here: BasicHttp with TransferMode.Streamed, which CoreWCF 1.9.1 answered with 400 Bad Request for every call
// from the streamed WCF client, plain DataSets included (docs/wcf.md, "CoreWCF").

public sealed class CoreWcfNetTcpTransportTests(CoreWcfNetTcpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfNetTcpShopHost>;

public sealed class CoreWcfNetTcpStreamedTransportTests(CoreWcfNetTcpStreamedShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfNetTcpStreamedShopHost>;

public sealed class CoreWcfBasicHttpTransportTests(CoreWcfBasicHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfBasicHttpShopHost>;

public sealed class CoreWcfBinaryHttpTransportTests(CoreWcfBinaryHttpShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfBinaryHttpShopHost>;

public sealed class CoreWcfUnixSocketTransportTests(CoreWcfUnixSocketShopHost host, ITestOutputHelper output)
    : TransportContract(host, output), IClassFixture<CoreWcfUnixSocketShopHost>;
