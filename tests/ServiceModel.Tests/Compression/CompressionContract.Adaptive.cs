using System.Data;
using Surrogate.Compression;
using Surrogate.Perf.Scenarios;
using Surrogate.Tests.Fixtures;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The adaptive encoder and the 2011 rules with static peers: one frame and one content type for all, so each reads
/// what the other writes, whichever way round; and both ends' decisions in the host's log.
/// </summary>
public abstract partial class CompressionContract
{
    public static TheoryData<string, string> MixedPeers() => new()
    {
        { CompressionVariant.Adaptive.Name, CompressionVariant.Zstd.Name },
        { CompressionVariant.Zstd.Name, CompressionVariant.Adaptive.Name },
        { CompressionVariant.Rules2011.Name, CompressionVariant.Adaptive.Name },
        { CompressionVariant.Adaptive.Name, CompressionVariant.Rules2011.Name },
        { CompressionVariant.AdaptiveDefaults.Name, "brotli-default" },
        { "lz4-default", CompressionVariant.AdaptiveDefaults.Name },
    };

    [Theory]
    [MemberData(nameof(MixedPeers))]
    public async Task Adaptive_and_static_ends_read_each_other(string client, string service)
    {
        DataSet dataSet = OrdersScenario.Create(orders: 200, seed: 9);
        await UseAsync(CompressionVariant.Named(client), CompressionVariant.Named(service), async proxy =>
        {
            host.Relay.Reset();
            SameOrders(MetzgerOrders.Take(1_000), await proxy.GetOrdersAsync(1_000));
            DataSetAssert.Equivalent(dataSet, await proxy.EchoDataSetAsync(dataSet));
            DataSetAssert.Equivalent(dataSet, await proxy.EchoSurrogateAsync(dataSet));
            Assert.Equal([5, 6], await proxy.EchoBytesAsync([5, 6]));
            // The pinned adaptive end and every static one compress these messages; the measuring one sends raw to a
            // peer on this machine (A_measuring_end_sends_raw_to_a_peer_on_this_machine).
            if (client != CompressionVariant.AdaptiveDefaults.Name)
            {
                Assert.True(CompressedFrames(host.Relay.Sent), $"{client} should compress the DataSet request");
            }

            if (service != CompressionVariant.AdaptiveDefaults.Name)
            {
                Assert.True(CompressedFrames(host.Relay.Received), $"{service} should compress the replies");
            }
        });
    }

    [Fact]
    public async Task A_measuring_end_sends_raw_to_a_peer_on_this_machine()
    {
        DataSet dataSet = OrdersScenario.Create(orders: 200, seed: 11);
        long before = host.Log.Count;
        await UseAsync(CompressionVariant.AdaptiveDefaults, async proxy =>
        {
            host.Relay.Reset();
            for (int i = 0; i < 3; i++)
            {
                DataSetAssert.Equivalent(dataSet, await proxy.EchoDataSetAsync(dataSet));
            }

            Assert.False(CompressedFrames(host.Relay.Sent), "a request to the relay on 127.0.0.1 went compressed");
            if (host.ServiceKnowsItsPeer)
            {
                Assert.False(CompressedFrames(host.Relay.Received), "a reply to the relay on 127.0.0.1 went compressed");
            }
        });
        List<CompressionDecision> decisions = [.. host.Log.Snapshot().TakeLast((int)(host.Log.Count - before))];
        string request = "urn:surrogate:compression/Orders/EchoDataSet";
        List<CompressionDecision> requests = [.. decisions.Where(d => d.Action == request)];
        Assert.Equal(3, requests.Count);
        Assert.All(requests, d => Assert.Equal(CompressionDecisionReason.LocalPeer, d.Reason));
        List<CompressionDecision> replies = [.. decisions.Where(d => d.Action == request + "Response")];
        Assert.Equal(3, replies.Count);
        if (host.ServiceKnowsItsPeer)
        {
            Assert.All(replies, d => Assert.Equal(CompressionDecisionReason.LocalPeer, d.Reason));
        }
    }

    [Fact]
    public async Task Both_adaptive_ends_log_their_decisions()
    {
        DataSet dataSet = OrdersScenario.Create(orders: 200, seed: 10);
        long before = host.Log.Count;
        await UseAsync(CompressionVariant.Adaptive, async proxy => DataSetAssert.Equivalent(dataSet, await proxy.EchoDataSetAsync(dataSet)));
        // This call's decisions (the tests of a class run one at a time, and each host has its own log).
        List<CompressionDecision> decisions = [.. host.Log.Snapshot().TakeLast((int)(host.Log.Count - before))];
        Assert.True(decisions.Count >= 2, $"{decisions.Count} decisions");
        string request = "urn:surrogate:compression/Orders/EchoDataSet";
        foreach (string action in new[] { request, request + "Response" })
        {
            // The client decides for the request, the service for the reply; both compress it on a 10 Mbit/s link,
            // with the model's choice or (a key's neighbours are tried every 5 s) the one next to it.
            CompressionDecision decision = Assert.Single(decisions, d => d.Action == action);
            Assert.Contains(decision.Reason, new[] { CompressionDecisionReason.Model, CompressionDecisionReason.Exploration });
            Assert.NotNull(decision.Codec);
            Assert.True(decision.WireLength < decision.Length / 2, $"{action}: {decision.WireLength} of {decision.Length}");
            Assert.Equal(10_000_000 / 8.0, decision.LinkBytesPerSecond);
            Assert.Equal(CompressionGoal.Latency, decision.Goal);
        }
    }

    /// <summary>Runs <paramref name="body"/> with a <paramref name="client"/> client of the <paramref name="service"/> endpoint.</summary>
    private async Task UseAsync(CompressionVariant client, CompressionVariant service, Func<IOrderService, Task> body)
    {
        var factory = host.CreateFactory(client, service);
        try
        {
            await body(factory.CreateChannel());
        }
        finally
        {
            factory.Abort();
        }
    }
}
