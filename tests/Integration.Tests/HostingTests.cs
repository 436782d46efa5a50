using System.ServiceModel;
using Surrogate.StandInHost;
using Xunit;

namespace Surrogate.Integration.Tests;

public sealed class HostingTests
{
    private sealed class DisposableService : ITestService, IDisposable
    {
        public static int Created;
        public static int Disposed;

        public DisposableService() => Interlocked.Increment(ref Created);

        public void Dispose() => Interlocked.Increment(ref Disposed);

        public Task<int> AddAsync(int a, int b) => Task.FromResult(a + b);
        public string Echo(string text) => text;
        public Task<Order> ReviseAsync(Order order) => Task.FromResult(order);
        public int Split(string text, out string head, ref int counter) => throw new NotSupportedException();
        public Task<System.Data.DataSet> EchoDataSetAsync(System.Data.DataSet dataSet) => Task.FromResult(dataSet);
        public Task<System.Data.DataTable> EchoTableAsync(System.Data.DataTable table) => Task.FromResult(table);
        public Task<System.Data.DataSet> CreateDataSetAsync(int rows) => Task.FromResult(TestData.CreateDataSet(rows));
        public Task FailAsync(string message) => throw new InvalidOperationException(message);
        public Task RejectAsync(string message) => throw new FaultException(message);
        public Task<Unwritable> UnwritableAsync() => Task.FromResult(new Unwritable());
        public Task<System.Data.DataTable> UnnamedTableAsync() => Task.FromResult(new System.Data.DataTable());
        public Task<int> DelayAsync(int milliseconds) => Task.FromResult(milliseconds);
        public void Notify(string text) { }
        public Task<string[]> NotifiedAsync() => Task.FromResult(Array.Empty<string>());
    }

    [Fact]
    public async Task Factory_service_gets_one_instance_per_call_disposed_after_it()
    {
        await using var host = await SoapServiceHost.StartAsync(b => b
            .AddService<ITestService>(() => new DisposableService())
            .AddNetTcpEndpoint<ITestService>("/per-call", Bindings.Create("tcp")));
        await using var client = await TestClient.OpenAsync(
            new ChannelFactory<ITestService>(Bindings.Create("tcp"), new EndpointAddress(host.GetEndpointAddress("/per-call"))));
        int created = DisposableService.Created, disposed = DisposableService.Disposed;
        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(i + 1, await client.Proxy.AddAsync(i, 1));
        }

        Assert.Equal(created + 3, DisposableService.Created);
        Assert.Equal(disposed + 3, DisposableService.Disposed);
    }

    [Fact]
    public async Task Addresses_carry_the_real_ports_and_unknown_paths_are_refused()
    {
        await using var host = await SoapServiceHost.StartAsync(b => b
            .AddService<ITestService>(new TestService())
            .AddNetTcpEndpoint<ITestService>("svc", Bindings.Create("tcp"))
            .AddHttpEndpoint<ITestService>("/svc/text", Bindings.Create("text")));
        Uri tcp = host.GetEndpointAddress("/svc");
        Uri http = host.GetEndpointAddress("svc/text");
        Assert.Equal($"net.tcp://127.0.0.1:{host.NetTcpPort}/svc", tcp.ToString());
        Assert.Equal($"http://127.0.0.1:{host.HttpPort}/svc/text", http.ToString());
        Assert.NotEqual(0, host.NetTcpPort);
        Assert.NotEqual(0, host.HttpPort);
        Assert.Throws<ArgumentException>(() => host.GetEndpointAddress("/other"));
    }

    [Fact]
    public async Task Listen_address_is_bound_by_both_listeners_and_carried_by_the_addresses()
    {
        // 127.0.0.2 is a loopback address on Linux that the default listeners (127.0.0.1) do not bind.
        var address = System.Net.IPAddress.Parse("127.0.0.2");
        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.ListenAddress = address;
            b.AddService<ITestService>(new TestService())
                .AddNetTcpEndpoint<ITestService>("/svc", Bindings.Create("tcp"))
                .AddHttpEndpoint<ITestService>("/svc/text", Bindings.Create("text"));
        });
        Assert.Equal($"net.tcp://127.0.0.2:{host.NetTcpPort}/svc", host.GetEndpointAddress("/svc").ToString());
        Assert.Equal($"http://127.0.0.2:{host.HttpPort}/svc/text", host.GetEndpointAddress("/svc/text").ToString());
        foreach (var (path, binding) in new[] { ("/svc", "tcp"), ("/svc/text", "text") })
        {
            await using var client = await TestClient.OpenAsync(
                new ChannelFactory<ITestService>(Bindings.Create(binding), new EndpointAddress(host.GetEndpointAddress(path))));
            Assert.Equal("hi " + binding, client.Proxy.Echo("hi " + binding));
        }
    }

    [Theory]
    [InlineData("net.tcp")]
    [InlineData("http")]
    public async Task Custom_encoder_of_the_binding_is_used_on_the_host(string scheme)
    {
        System.ServiceModel.Channels.Binding Binding() => new System.ServiceModel.Channels.CustomBinding(
            new CountingEncodingBindingElement(new System.ServiceModel.Channels.BinaryMessageEncodingBindingElement()),
            scheme == "http"
                ? new System.ServiceModel.Channels.HttpTransportBindingElement()
                : new System.ServiceModel.Channels.TcpTransportBindingElement())
        {
            SendTimeout = HostFixture.Timeout,
            OpenTimeout = HostFixture.Timeout,
        };

        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.AddService<ITestService>(new TestService());
            if (scheme == "http")
            {
                b.AddHttpEndpoint<ITestService>("/counted", Binding());
            }
            else
            {
                b.AddNetTcpEndpoint<ITestService>("/counted", Binding());
            }
        });
        await using var client = await TestClient.OpenAsync(
            new ChannelFactory<ITestService>(Binding(), new EndpointAddress(host.GetEndpointAddress("/counted"))));
        int reads = CountingEncodingBindingElement.Reads, writes = CountingEncodingBindingElement.Writes;
        Assert.Equal(5, await client.Proxy.AddAsync(2, 3));
        Assert.Equal(3, (await client.Proxy.CreateDataSetAsync(3)).Tables[0].Rows.Count);

        // Two calls: the client writes two requests and reads two replies; the host reads two and writes two.
        Assert.True(CountingEncodingBindingElement.Reads - reads >= 4, $"reads: {CountingEncodingBindingElement.Reads - reads}");
        Assert.True(CountingEncodingBindingElement.Writes - writes >= 4, $"writes: {CountingEncodingBindingElement.Writes - writes}");
    }

    [Theory]
    [InlineData("tcp")]
    [InlineData("text")]
    public async Task An_endpoint_description_can_be_changed_before_its_behaviors_apply(string transport)
    {
        // The configured endpoint reads at most one object per message; the plain one, of the same contract, has no such limit.
        Uri? configured = null;
        void Limit(System.ServiceModel.Description.ServiceEndpoint endpoint)
        {
            configured = endpoint.Address.Uri;
            endpoint.Contract.Operations.Find("Revise")!.Behaviors
                .Find<System.ServiceModel.Description.DataContractSerializerOperationBehavior>()!.MaxItemsInObjectGraph = 1;
        }

        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.IncludeExceptionDetailInFaults = true;
            b.AddService<ITestService>(new TestService());
            if (Bindings.IsTcp(transport))
            {
                b.AddNetTcpEndpoint<ITestService>("/plain", Bindings.Create(transport)).AddNetTcpEndpoint<ITestService>("/limited", Bindings.Create(transport), Limit);
            }
            else
            {
                b.AddHttpEndpoint<ITestService>("/plain", Bindings.Create(transport)).AddHttpEndpoint<ITestService>("/limited", Bindings.Create(transport), Limit);
            }
        });
        Assert.Equal("/limited", configured?.AbsolutePath);
        var order = new Order { Id = 1, Customer = "c", Amounts = [1m, 2m] };

        await using (var plain = await TestClient.OpenAsync(new ChannelFactory<ITestService>(Bindings.Create(transport), new EndpointAddress(host.GetEndpointAddress("/plain")))))
        {
            Assert.Equal(2, (await plain.Proxy.ReviseAsync(order)).Id);
        }

        await using var limited = await TestClient.OpenAsync(new ChannelFactory<ITestService>(Bindings.Create(transport), new EndpointAddress(host.GetEndpointAddress("/limited"))));
        var refused = await Assert.ThrowsAnyAsync<CommunicationException>(() => limited.Proxy.ReviseAsync(order));
        Assert.Contains("object graph is '1'", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_contract_without_a_service_is_refused_at_start()
    {
        await Assert.ThrowsAsync<InvalidOperationException>(() => SoapServiceHost.StartAsync(b => b
            .AddNetTcpEndpoint<ITestService>("/svc", Bindings.Create("tcp"))));
    }
}
