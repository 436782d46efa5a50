using System.Data;
using CoreWCF.Description;
using Microsoft.Extensions.DependencyInjection;
using Surrogate.CoreWCF;
using Xunit;
using Client = System.ServiceModel;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// CoreWCF services with and without the adapter behind one address (the relay plays the load balancer), the
/// registration itself, and the host's options: what the transport suite cannot show with one host.
/// </summary>
public sealed class CoreWcfFleetTests
{
    private const string Path = "/shop";

    [Fact]
    public async Task Without_a_session_a_payload_request_to_a_service_without_the_adapter_fails_once_then_requests_are_plain()
    {
        var counter = new RowCounter();
        await using CoreWcfServer upgraded = await StartAsync("http", counter, surrogate: true);
        await using CoreWcfServer old = await StartAsync("http", counter, surrogate: false);
        await using var relay = new CountingProxy(upgraded.Port);
        IShop client = Channel(new Client.BasicHttpBinding(), upgraded, relay);
        DataSet orders = SampleData.Orders();
        int rows = RowCount(orders);

        Assert.Equal(rows, await client.CountRowsAsync(orders)); // learns
        relay.Reset();
        Assert.Equal(rows, await client.CountRowsAsync(orders));
        Assert.True(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "the learned client should send the payload");

        relay.Retarget(old.Port);
        int ranBefore = counter.Calls;
        await Assert.ThrowsAnyAsync<Client.CommunicationException>(() => client.CountRowsAsync(orders));
        Assert.Equal(ranBefore, counter.Calls); // the operation did not run on an empty DataSet

        relay.Reset();
        Assert.Equal(rows, await client.CountRowsAsync(orders));
        Assert.False(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "after the failure requests are plain");
    }

    [Fact]
    public async Task A_net_tcp_session_with_a_service_without_the_adapter_never_sends_the_payload()
    {
        var counter = new RowCounter();
        await using CoreWcfServer old = await StartAsync("net.tcp", counter, surrogate: false);
        await using var relay = new CountingProxy(old.Port);
        IShop client = Channel(SurrogateBindings.WithConnectionBufferSize(new Client.NetTcpBinding(Client.SecurityMode.None)), old, relay);
        DataSet orders = SampleData.Orders();
        for (int call = 0; call < 2; call++)
        {
            relay.Reset();
            Assert.Equal(RowCount(orders), await client.CountRowsAsync(orders));
            Assert.False(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "a service without the adapter is sent plain XML");
            Assert.False(CountingProxy.Contains(relay.Received, SurrogatePayload.PayloadNamespace), "and answers plain XML");
        }
    }

    [Fact]
    public async Task The_host_options_limit_what_the_service_reads()
    {
        var counter = new RowCounter();
        var options = new SurrogateOptions { MaxTotalBytes = 1024 };
        await using CoreWcfServer server = await StartAsync("http", counter, surrogate: true, options);
        await using var relay = new CountingProxy(server.Port);
        var binding = new Client.BasicHttpBinding { MaxReceivedMessageSize = 16 << 20 };
        IShop client = Channel(binding, server, relay);
        Assert.Equal(2, await client.CountRowsAsync(SampleData.Orders(1))); // learns; a small payload passes
        var refused = await Assert.ThrowsAnyAsync<Client.CommunicationException>(() => client.CountRowsAsync(SampleData.Orders(400)));
        Assert.Contains("MaxTotalBytes", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Registering_twice_adds_one_behavior_and_other_options_are_refused()
    {
        var services = new ServiceCollection();
        services.AddDataSetSurrogate().AddDataSetSurrogate();
        Assert.Single(services, d => d.ServiceType == typeof(IServiceBehavior));
        Assert.Throws<InvalidOperationException>(() => services.AddDataSetSurrogate(new SurrogateOptions { MaxRows = 5 }));
    }

    private static async Task<CoreWcfServer> StartAsync(string scheme, RowCounter counter, bool surrogate, SurrogateOptions? options = null) =>
        await CoreWcfServer.StartAsync(scheme, [Path], services =>
        {
            if (surrogate)
            {
                services.AddDataSetSurrogate(options);
            }

            services.AddSingleton(counter);
        }, (b, address) => b.AddService<RowCounter>().AddServiceEndpoint<RowCounter, IShop>(
            scheme == "http" ? new global::CoreWCF.BasicHttpBinding { MaxReceivedMessageSize = 16 << 20 } : new global::CoreWCF.NetTcpBinding(global::CoreWCF.SecurityMode.None),
            address(Path)));

    private static IShop Channel(Client.Channels.Binding binding, CoreWcfServer server, CountingProxy relay)
    {
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = TimeSpan.FromSeconds(15);
        var factory = new Client.ChannelFactory<IShop>(binding, new Client.EndpointAddress(server.GetEndpointAddress(Path)));
        relay.Route(factory.Endpoint);
        return factory.CreateChannel();
    }

    private static int RowCount(DataSet data) => data.Tables.Cast<DataTable>().Sum(t => t.Rows.Count);

    /// <summary>The shop service counting the calls that ran.</summary>
    public sealed class RowCounter : IShop
    {
        private readonly ShopService _shop = new();
        private int _calls;

        public int Calls => Volatile.Read(ref _calls);

        public Task<DataSet> EchoAsync(DataSet value) => _shop.EchoAsync(value);

        public Task<ShopDataSet> EchoTypedAsync(ShopDataSet value) => _shop.EchoTypedAsync(value);

        public Task<Surrogate.Tests.Fixtures.OrdersTypedDataSet> EchoOrdersTypedAsync(Surrogate.Tests.Fixtures.OrdersTypedDataSet value) => _shop.EchoOrdersTypedAsync(value);

        public Task<Envelope> EchoEnvelopeAsync(Envelope value) => _shop.EchoEnvelopeAsync(value);

        public Task<List<DataTable>> EchoTablesAsync(List<DataTable> value) => _shop.EchoTablesAsync(value);

        public DataSet Swap(DataSet input, ref DataTable table, out DataSet copy) => _shop.Swap(input, ref table, out copy);

        public Task<int> CountRowsAsync(DataSet value)
        {
            Interlocked.Increment(ref _calls);
            return _shop.CountRowsAsync(value);
        }
    }
}
