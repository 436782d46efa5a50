using System.Data;
using Surrogate.Compression;
using Surrogate.Perf.Scenarios;
using Surrogate.Tests.Fixtures;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The compression suite plus streamed transfer, for the net.tcp hosts (streamed HTTP is not covered: docs/compression.md).</summary>
public abstract class StreamedCompressionContract(CompressionHost host, ITestOutputHelper output) : CompressionContract(host, output)
{
    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task Streamed_transfer_compresses_on_the_fly(string subject)
    {
        DataSet dataSet = OrdersScenario.Create(orders: 300, seed: 8);
        string marker = MetzgerOrders.Take(1)[0].CreditCardNumber!;
        await UseAsync(CompressionSubject.Named(subject).Streamed, async client =>
        {
            Host.Relay.Reset();
            Order[] orders = await client.GetOrdersAsync(1_000);
            Assert.Equal(1_000, orders.Length);
            Assert.Equal(MetzgerOrders.Take(1_000)[999].CreditCardName, orders[999].CreditCardName);
            Assert.False(CountingProxy.Contains(Host.Relay.Received, marker), "the streamed reply should be compressed");
            Assert.True(CompressedFrames(Host.Relay.Received), "a compressed frame");
            DataSetAssert.Equivalent(dataSet, await client.EchoDataSetAsync(dataSet));
            Assert.Equal([7], await client.EchoBytesAsync([7]));
        });
    }

    [Fact]
    public async Task A_measuring_service_times_its_replies_round_trips_on_a_session()
    {
        // A reply's round trip runs from the service writing it to the client's next request on that connection.
        // CoreWCF reads and writes a connection through two session encoders: before the reply was timed on the
        // request's clock, the service never measured one and kept assuming its configured 1 Gbit/s. (The relay in
        // front of the service is a peer on this machine, which the defaults would not time: this end prices it.)
        long before = Host.Log.Count;
        await UseAsync(CompressionVariant.AdaptiveRelayed, async proxy =>
        {
            for (int i = 0; i < 4; i++)
            {
                Assert.Equal(1_000, (await proxy.GetOrdersAsync(1_000)).Length);
            }
        });
        List<CompressionDecision> replies = [.. Host.Log.Snapshot().TakeLast((int)(Host.Log.Count - before)).Where(d => d.Action.EndsWith("GetOrdersResponse", StringComparison.Ordinal))];
        Assert.Equal(4, replies.Count);
        // From the second reply on, a measurement (the endpoint's policy may have measured earlier tests' calls too,
        // and on a long run the bytes sent per second may count for more): never the configured rate.
        Assert.All(replies.Skip(1), d => Assert.NotEqual("prior", d.LinkSource));
    }
}
