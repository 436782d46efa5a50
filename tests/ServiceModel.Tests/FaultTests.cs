using System.Collections.Concurrent;
using System.Data;
using System.ServiceModel;
using Surrogate.StandInHost;
using Surrogate.Tests.Fixtures;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// Faults over real sockets (net.tcp, [DataSetSurrogate] on both sides, 127.0.0.1): a relay that cuts, corrupts or
/// stalls a message, a slow client, a server killed mid-reply. The caller always gets a CommunicationException or
/// TimeoutException within its timeouts, the host keeps serving other clients, and neither the service operation nor
/// the caller ever receives a partial DataSet. No durations are asserted.
/// </summary>
public sealed class FaultTests : IAsyncLifetime
{
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(10);
    private readonly RecordingShop _service = new();
    private SoapServiceHost? _host;

    private Uri Address => _host!.GetEndpointAddress(ShopHost.NewLarge);

    public async Task InitializeAsync() => _host = await SoapServiceHost.StartAsync(b => b
        .AddService<IShop>(_service)
        .AddNetTcpEndpoint<IShop>(ShopHost.NewLarge, new NetTcpShopHost().CreateBinding(large: true)));

    public async Task DisposeAsync() => await _host!.DisposeAsync();

    [Fact]
    public async Task A_reply_cut_mid_message_fails_the_call_and_the_host_serves_others()
    {
        await using var relay = new FaultyRelay(Address.Port, reply: new Fault(CutAfter: 32 * 1024));
        await AssertFails(relay, shop => shop.EchoAsync(SampleData.Orders(rows: 5_000)));
        await AssertServesOthers();
    }

    [Fact]
    public async Task A_corrupted_reply_fails_the_call()
    {
        await using var relay = new FaultyRelay(Address.Port, reply: new Fault(CorruptAt: 32 * 1024));
        await AssertFails(relay, shop => shop.EchoAsync(SampleData.Orders(rows: 5_000)));
        await AssertServesOthers();
    }

    [Fact]
    public async Task A_request_cut_mid_message_never_reaches_the_operation()
    {
        await using var relay = new FaultyRelay(Address.Port, request: new Fault(CutAfter: 32 * 1024));
        await AssertFails(relay, shop => shop.CountRowsAsync(SampleData.Orders(rows: 5_000)));
        Assert.Empty(_service.Received);
        await AssertServesOthers();
    }

    [Fact]
    public async Task A_corrupted_request_never_reaches_the_operation()
    {
        await using var relay = new FaultyRelay(Address.Port, request: new Fault(CorruptAt: 32 * 1024));
        await AssertFails(relay, shop => shop.CountRowsAsync(SampleData.Orders(rows: 5_000)));
        Assert.Empty(_service.Received);
        await AssertServesOthers();
    }

    [Fact]
    public async Task A_client_stalled_mid_request_times_out_while_the_host_serves_others()
    {
        await using var relay = new FaultyRelay(Address.Port, request: new Fault(StallAfter: 16 * 1024));
        var stalled = AssertFails(relay, shop => shop.CountRowsAsync(SampleData.Orders(rows: 5_000)));
        while (relay.RequestBytes == 0 && !stalled.IsCompleted)
        {
            await Task.Delay(20);
        }

        await AssertServesOthers(); // the stalled request is still open: the relay holds it until the client gives up
        await stalled;
        Assert.Empty(_service.Received);
    }

    [Fact]
    public async Task A_slow_client_gets_the_whole_dataset()
    {
        await using var relay = new FaultyRelay(Address.Port, request: new Fault(ChunkBytes: 8 * 1024, ChunkDelay: TimeSpan.FromMilliseconds(10)),
            reply: new Fault(ChunkBytes: 8 * 1024, ChunkDelay: TimeSpan.FromMilliseconds(10)));
        var sent = SampleData.Orders(rows: 2_000);
        var factory = Factory(relay);
        try
        {
            var received = await factory.CreateChannel().EchoAsync(sent);
            DataSetAssert.Equivalent(sent, received);
        }
        finally
        {
            factory.Abort();
        }
    }

    [Fact]
    public async Task A_server_killed_mid_reply_fails_the_call()
    {
        using var server = await ShopHostProcess.StartAsync();
        // The reply is slowed to 8 KB per 20 ms, so it is still in flight when the server dies.
        await using var relay = new FaultyRelay(server.Address.Port, reply: new Fault(ChunkBytes: 8 * 1024, ChunkDelay: TimeSpan.FromMilliseconds(20)));
        var call = AssertFails(relay, shop => shop.EchoAsync(SampleData.Orders(rows: 20_000)));
        while (relay.ReplyBytes == 0 && !call.IsCompleted)
        {
            await Task.Delay(10);
        }

        server.Kill();
        await call;
    }

    private ChannelFactory<IShop> Factory(FaultyRelay relay)
    {
        var binding = new NetTcpShopHost().CreateBinding(large: true);
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = binding.CloseTimeout = CallTimeout;
        var factory = new ChannelFactory<IShop>(binding, new EndpointAddress(Address));
        relay.Route(factory.Endpoint);
        return factory;
    }

    /// <summary>The call fails with the transport's exception (never with a result), within the binding's timeouts.</summary>
    private async Task AssertFails<T>(FaultyRelay relay, Func<IShop, Task<T>> call)
    {
        var factory = Factory(relay);
        try
        {
            var outcome = await Record.ExceptionAsync(async () =>
            {
                var result = await call(factory.CreateChannel());
                Assert.Fail($"the call returned {result} despite the fault");
            });
            Assert.True(outcome is CommunicationException or TimeoutException, $"expected a CommunicationException or TimeoutException, got {outcome}");
        }
        finally
        {
            factory.Abort();
        }
    }

    /// <summary>A clean client of the same host still gets a complete, equal DataSet.</summary>
    private async Task AssertServesOthers()
    {
        var binding = new NetTcpShopHost().CreateBinding(large: true);
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = CallTimeout;
        var factory = new ChannelFactory<IShop>(binding, new EndpointAddress(Address));
        try
        {
            var sent = SampleData.Orders(rows: 50);
            DataSetAssert.Equivalent(sent, await factory.CreateChannel().EchoAsync(sent));
        }
        finally
        {
            factory.Abort();
        }
    }

    /// <summary>Records the row count of every DataSet an operation receives.</summary>
    private sealed class RecordingShop : IShop
    {
        public ConcurrentBag<int> Received { get; } = [];

        public Task<DataSet> EchoAsync(DataSet value) => Task.FromResult(value);

        public Task<ShopDataSet> EchoTypedAsync(ShopDataSet value) => Task.FromResult(value);

        public Task<OrdersTypedDataSet> EchoOrdersTypedAsync(OrdersTypedDataSet value) => Task.FromResult(value);

        public Task<Envelope> EchoEnvelopeAsync(Envelope value) => Task.FromResult(value);

        public Task<List<DataTable>> EchoTablesAsync(List<DataTable> value) => Task.FromResult(value);

        public DataSet Swap(DataSet input, ref DataTable table, out DataSet copy)
        {
            copy = input.Copy();
            return input;
        }

        public Task<int> CountRowsAsync(DataSet value)
        {
            var rows = value.Tables.Cast<DataTable>().Sum(t => t.Rows.Count);
            Received.Add(rows);
            return Task.FromResult(rows);
        }
    }
}
