using System.Data;
using System.Diagnostics;
using System.ServiceModel;
using Xunit;

namespace Surrogate.Integration.Tests;

public sealed class RoundTripTests(HostFixture fixture) : IClassFixture<HostFixture>
{
    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Primitives_round_trip(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        Assert.Equal(42, await client.Proxy.AddAsync(40, 2));
        Assert.Equal("héllo <&> wörld", client.Proxy.Echo("héllo <&> wörld"));
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Out_and_ref_parameters_come_back(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        int counter = 5;
        int length = client.Proxy.Split("abcdef", out string head, ref counter);
        Assert.Equal(6, length);
        Assert.Equal("abc", head);
        Assert.Equal(15, counter);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Data_contract_with_a_DataTable_member_round_trips(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        var order = new Order { Id = 7, Customer = "ada", Amounts = [1.5m, 2.25m], Lines = TestData.CreateLines() };
        Order revised = await client.Proxy.ReviseAsync(order);
        Assert.Equal(8, revised.Id);
        Assert.Equal("ADA", revised.Customer);
        Assert.Equal([1.5m, 2.25m, 3.75m], revised.Amounts);
        Assert.NotNull(revised.Lines);
        Assert.Equal(2, revised.Lines!.Rows.Count);
        Assert.Equal("added", revised.Lines.Rows[1]["Product"]);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task DataSet_keeps_row_states_original_values_and_errors(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        DataSet sent = TestData.CreateDataSet(20);
        DataSet received = await client.Proxy.EchoDataSetAsync(sent);
        Assert.Equal("Shop", received.DataSetName);
        TestData.AssertSameRows(sent.Tables["Items"]!, received.Tables["Items"]!);
        Assert.Equal(DataRowState.Modified, received.Tables[0].Rows[0].RowState);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task DataTable_round_trips(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        DataTable sent = TestData.CreateLines();
        DataTable received = await client.Proxy.EchoTableAsync(sent);
        Assert.Equal("Lines", received.TableName);
        Assert.Equal(sent.Rows[0].ItemArray, received.Rows[0].ItemArray);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Throwing_operation_faults_quickly(string transport)
    {
        await using (var client = await TestClient.OpenAsync(fixture.Factory(transport)))
        {
            var watch = Stopwatch.StartNew();
            FaultException fault = await Assert.ThrowsAsync<FaultException>(() => client.Proxy.FailAsync("boom 17"));
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"The fault took {watch.Elapsed}.");
            Assert.Contains("boom 17", fault.Message, StringComparison.Ordinal);
            Assert.Contains("InvalidOperationException", fault.Message, StringComparison.Ordinal);
        }

        // As with WCF, an unhandled exception may end a session; the endpoint keeps serving new channels.
        await using var next = await TestClient.OpenAsync(fixture.Factory(transport));
        Assert.Equal(3, await next.Proxy.AddAsync(1, 2));
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task FaultException_from_the_operation_keeps_its_reason_and_the_channel(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        FaultException fault = await Assert.ThrowsAsync<FaultException>(() => client.Proxy.RejectAsync("not today"));
        Assert.Equal("not today", fault.Message);
        Assert.Equal(3, await client.Proxy.AddAsync(1, 2));
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Reply_that_cannot_be_serialized_faults_quickly(string transport)
    {
        await using (var client = await TestClient.OpenAsync(fixture.Factory(transport)))
        {
            var watch = Stopwatch.StartNew();
            FaultException fault = await Assert.ThrowsAsync<FaultException>(() => client.Proxy.UnnamedTableAsync());
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"The fault took {watch.Elapsed}.");
            Assert.Contains("DataTable name is not set", fault.Message, StringComparison.Ordinal);
        }

        await using var next = await TestClient.OpenAsync(fixture.Factory(transport));
        Assert.Equal(3, (await next.Proxy.CreateDataSetAsync(3)).Tables[0].Rows.Count);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Reply_failing_midway_faults_and_the_session_encoding_stays_in_step(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        FaultException fault = await Assert.ThrowsAsync<FaultException>(() => client.Proxy.UnwritableAsync());
        Assert.Equal("second member refused", fault.Message);

        // The next replies on the same connection use dictionary strings added after the failed write.
        DataSet after = await client.Proxy.CreateDataSetAsync(3);
        Assert.Equal(3, after.Tables[0].Rows.Count);
        Assert.Equal("abc", client.Proxy.Echo("abc"));
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Concurrent_calls_on_one_channel_all_complete(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        Task<int>[] calls = [.. Enumerable.Range(0, 32).Select(i => client.Proxy.DelayAsync(i % 4 * 20))];
        Task<int>[] sums = [.. Enumerable.Range(0, 32).Select(i => client.Proxy.AddAsync(i, 1000))];
        int[] delays = await Task.WhenAll(calls);
        int[] added = await Task.WhenAll(sums);
        Assert.Equal(Enumerable.Range(0, 32).Select(i => i % 4 * 20), delays);
        Assert.Equal(Enumerable.Range(1000, 32), added);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task One_way_call_reaches_the_service(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport));
        string text = "note " + transport + Guid.NewGuid();
        client.Proxy.Notify(text);
        var deadline = Stopwatch.StartNew();
        while (!(await client.Proxy.NotifiedAsync()).Contains(text))
        {
            Assert.True(deadline.Elapsed < TimeSpan.FromSeconds(5), "The one-way call never arrived.");
            await Task.Delay(20);
        }
    }

    [Fact]
    public async Task Two_tcp_endpoints_of_one_contract_serve_independently()
    {
        await using var first = await TestClient.OpenAsync(fixture.Factory("tcp"));
        var secondFactory = new ChannelFactory<ITestService>(
            Bindings.Create("tcp"), new EndpointAddress(fixture.Host.GetEndpointAddress("/tcp/second")));
        await using var second = await TestClient.OpenAsync(secondFactory);
        Assert.Equal(5, await first.Proxy.AddAsync(2, 3));
        Assert.Equal(7, await second.Proxy.AddAsync(3, 4));
        Assert.Equal(fixture.Host.GetEndpointAddress("/tcp").Port, fixture.Host.GetEndpointAddress("/tcp/second").Port);
        Assert.Equal("net.tcp", fixture.Host.GetEndpointAddress("/tcp/second").Scheme);
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Large_DataSet_passes_with_raised_quotas(string transport)
    {
        await using var client = await TestClient.OpenAsync(fixture.Factory(transport, large: true));
        DataSet sent = TestData.CreateDataSet(20_000);
        DataSet received = await client.Proxy.EchoDataSetAsync(sent);
        TestData.AssertSameRows(sent.Tables[0], received.Tables[0]);
    }
}
