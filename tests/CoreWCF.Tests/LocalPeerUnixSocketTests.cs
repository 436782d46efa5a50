using System.Data;
using CoreWCF;
using Microsoft.Extensions.DependencyInjection;
using Surrogate.Compression;
using Surrogate.CoreWCF;
using Surrogate.Perf.Scenarios;
using Surrogate.Tests.Fixtures;
using Xunit;
using Client = System.ServiceModel;
using ClientChannels = System.ServiceModel.Channels;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The measuring adaptive encoder on a Unix domain socket, whose connections have no IP address: the client knows its
/// peer is local by the net.uds address it dials, the CoreWCF service by the request's, and both send raw.
/// </summary>
public sealed class LocalPeerUnixSocketTests
{
    [Fact]
    public async Task Both_ends_send_raw_over_a_unix_domain_socket()
    {
        var log = new CompressionDecisionLog(capacity: 1_024);
        CompressionOptions options = CompressionOptions.Adaptive with { DecisionLog = log };
        var service = new OrderService();
        await using CoreWcfServer server = await CoreWcfServer.StartAsync("net.uds", ["/orders"], services =>
        {
            services.AddDataSetSurrogate();
            services.AddSingleton(service);
        }, (b, address) =>
        {
            if (address("/orders") is { Length: > 0 } at)
            {
                var binding = new UnixDomainSocketBinding(UnixDomainSocketSecurityMode.None) { MaxReceivedMessageSize = CompressionVariant.LargeMessage };
                b.AddService<OrderService>();
                b.AddServiceEndpoint<OrderService, IOrderService>(binding.WithCompression(options), at);
            }
        });

        // The client's UnixDomainSocketBinding has no encoding element to wrap (its transport encodes binary itself).
        var clientBinding = new ClientChannels.CustomBinding(
            new ClientChannels.BinaryMessageEncodingBindingElement(),
            new ClientChannels.UnixDomainSocketTransportBindingElement { MaxReceivedMessageSize = CompressionVariant.LargeMessage, MaxBufferSize = CompressionVariant.LargeMessage });
        var factory = new Client.ChannelFactory<IOrderService>(MessageCompression.WithCompression(clientBinding, options), new Client.EndpointAddress(server.GetEndpointAddress("/orders")));
        try
        {
            IOrderService proxy = factory.CreateChannel();
            DataSet dataSet = OrdersScenario.Create(orders: 200, seed: 12);
            for (int i = 0; i < 3; i++)
            {
                DataSetAssert.Equivalent(dataSet, await proxy.EchoDataSetAsync(dataSet));
            }

            ((Client.IClientChannel)proxy).Close();
        }
        finally
        {
            factory.Abort();
        }

        List<CompressionDecision> decisions = [.. log.Snapshot().Where(d => d.Action.Contains("EchoDataSet", StringComparison.Ordinal))];
        Assert.Equal(3, decisions.Count(d => !d.Action.EndsWith("Response", StringComparison.Ordinal)));
        Assert.Equal(3, decisions.Count(d => d.Action.EndsWith("Response", StringComparison.Ordinal)));
        Assert.All(decisions, d => Assert.Equal(CompressionDecisionReason.LocalPeer, d.Reason));
        Assert.All(decisions, d => Assert.Null(d.Codec));
    }
}
