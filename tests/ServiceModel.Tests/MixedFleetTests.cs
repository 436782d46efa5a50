using System.Data;
using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.StandInHost;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// A rolling upgrade behind one address: a client that learned from a service with the attribute is sent on to one
/// without it, or with it on fewer operations (the relay plays the load balancer). That service must never read a
/// payload request as an empty DataSet: the mustUnderstand marker makes it refuse such a request, and the client goes
/// back to plain requests.
/// </summary>
public sealed class MixedFleetTests : IAsyncLifetime
{
    private const string Path = "/shop";
    private SoapServiceHost? _newService;
    private SoapServiceHost? _oldService;

    public static TheoryData<string> SessionlessTransports => new() { "text", "binary-http", "net.tcp-streamed" };

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        if (_newService is not null)
        {
            await _newService.DisposeAsync();
        }

        if (_oldService is not null)
        {
            await _oldService.DisposeAsync();
        }
    }

    [Theory]
    [MemberData(nameof(SessionlessTransports))]
    public async Task Without_a_session_a_payload_request_to_an_old_service_is_refused_once_then_requests_are_plain(string transport)
    {
        await using CountingProxy relay = await StartFleetAsync(transport);
        IShop client = new ChannelFactory<IShop>(Binding(transport), Address(transport, relay)).CreateChannel();
        DataSet orders = SampleData.Orders();
        int rows = RowCount(orders);

        Assert.Equal(rows, await client.CountRowsAsync(orders)); // learns
        relay.Reset();
        Assert.Equal(rows, await client.CountRowsAsync(orders));
        Assert.True(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "the learned client should send the payload");

        relay.Retarget(_oldService!.GetEndpointAddress(Path).Port);
        // Without the marker the old service would answer 0 (an empty DataSet); it must refuse and run nothing.
        var refused = await Assert.ThrowsAnyAsync<CommunicationException>(() => client.CountRowsAsync(orders));
        Assert.Contains(SurrogateNegotiation.PayloadHeaderName, refused.Message, StringComparison.Ordinal);

        relay.Reset();
        Assert.Equal(rows, await client.CountRowsAsync(orders));
        Assert.False(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "after the refusal requests are plain");

        relay.Retarget(_newService!.GetEndpointAddress(Path).Port);
        relay.Reset();
        Assert.Equal(rows, RowCount(await client.EchoAsync(orders)));
        Assert.False(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "requests stay plain for the back-off");
        Assert.True(CountingProxy.Contains(relay.Received, SurrogatePayload.PayloadNamespace), "replies still use the payload");
    }

    [Fact]
    public async Task A_session_learns_from_its_own_service_so_a_new_channel_to_an_old_service_never_fails()
    {
        await using CountingProxy relay = await StartFleetAsync("net.tcp");
        var factory = new ChannelFactory<IShop>(Binding("net.tcp"), Address("net.tcp", relay));
        DataSet orders = SampleData.Orders();
        int rows = RowCount(orders);
        IShop first = factory.CreateChannel();
        Assert.Equal(rows, await first.CountRowsAsync(orders));
        relay.Reset();
        Assert.Equal(rows, await first.CountRowsAsync(orders));
        Assert.True(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "the learned session should send the payload");

        relay.Retarget(_oldService!.GetEndpointAddress(Path).Port); // the first session's connection is dropped
        ((IClientChannel)first).Abort();
        IShop second = factory.CreateChannel();
        for (int call = 0; call < 2; call++)
        {
            relay.Reset();
            Assert.Equal(rows, await second.CountRowsAsync(orders));
            Assert.False(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "a session with an old service sends plain XML");
        }
    }

    [Fact]
    public async Task A_service_behind_the_address_with_the_attribute_on_fewer_operations_refuses_rather_than_reads_empty()
    {
        // Behind one address the service moves from the attribute on the contract to the attribute on Echo only.
        var service = new PlacementService();
        _newService = await SoapServiceHost.StartAsync(b => b.AddService<IPlacementOnContract>(service).AddHttpEndpoint<IPlacementOnContract>(Path, Binding("text")));
        _oldService = await SoapServiceHost.StartAsync(b => b.AddService<IPlacementOnOperation>(service).AddHttpEndpoint<IPlacementOnOperation>(Path, Binding("text")));
        await using var relay = new CountingProxy(_newService.GetEndpointAddress(Path).Port);
        IPlacementOnContract client = new ChannelFactory<IPlacementOnContract>(Binding("text"), Address("text", relay)).CreateChannel();
        DataSet orders = SampleData.Orders();
        await client.EchoAsync("learn", orders);

        relay.Retarget(_oldService!.GetEndpointAddress(Path).Port);
        var refused = await Assert.ThrowsAnyAsync<CommunicationException>(() => client.EchoOtherAsync("refused", orders));
        Assert.Contains(SurrogateNegotiation.PayloadHeaderName, refused.Message, StringComparison.Ordinal);
        Assert.False(service.HasReceived("refused"), "the operation must not run");

        relay.Reset();
        Assert.Equal(RowCount(orders), RowCount(await client.EchoOtherAsync("plain", orders)));
        Assert.Equal(RowCount(orders), RowCount(await service.ReceivedAsync("plain")));
        Assert.False(CountingProxy.Contains(relay.Sent, SurrogatePayload.PayloadNamespace), "after the refusal requests are plain");
    }

    private async Task<CountingProxy> StartFleetAsync(string transport)
    {
        var service = new ShopService();
        _newService = await SoapServiceHost.StartAsync(b => Add<IShop>(b.AddService<IShop>(service), transport));
        _oldService = await SoapServiceHost.StartAsync(b => Add<IShopOld>(b.AddService<IShopOld>(service), transport));
        return new CountingProxy(_newService.GetEndpointAddress(Path).Port);
    }

    private static void Add<TContract>(SoapServiceHostBuilder builder, string transport)
        where TContract : class
    {
        if (transport.StartsWith("net.tcp", StringComparison.Ordinal))
        {
            builder.AddNetTcpEndpoint<TContract>(Path, Binding(transport));
        }
        else
        {
            builder.AddHttpEndpoint<TContract>(Path, Binding(transport));
        }
    }

    private static Binding Binding(string transport)
    {
        Binding binding = transport switch
        {
            "text" => new BasicHttpBinding(),
            "binary-http" => new CustomBinding(new BinaryMessageEncodingBindingElement(), new HttpTransportBindingElement()),
            "net.tcp" => new NetTcpBinding(SecurityMode.None),
            "net.tcp-streamed" => new NetTcpBinding(SecurityMode.None) { TransferMode = TransferMode.Streamed },
            _ => throw new ArgumentOutOfRangeException(nameof(transport)),
        };
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = TimeSpan.FromSeconds(15);
        return binding;
    }

    private EndpointAddress Address(string transport, CountingProxy relay) =>
        new(new UriBuilder(_newService!.GetEndpointAddress(Path)) { Port = relay.Port }.Uri);

    private static int RowCount(DataSet data) => data.Tables.Cast<DataTable>().Sum(t => t.Rows.Count);
}
