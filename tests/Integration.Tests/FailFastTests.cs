using System.Data;
using System.Diagnostics;
using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.StandInHost;
using Xunit;

namespace Surrogate.Integration.Tests;

/// <summary>Mismatches and exceeded limits end in an error within seconds, never in a wait for the timeout.</summary>
public sealed class FailFastTests(HostFixture fixture) : IClassFixture<HostFixture>
{
    private static readonly TimeSpan Quick = TimeSpan.FromSeconds(5);

    [Fact]
    public async Task Tcp_client_with_another_encoding_gets_a_framing_fault()
    {
        var text = new CustomBinding(new TextMessageEncodingBindingElement(), new TcpTransportBindingElement())
        {
            OpenTimeout = HostFixture.Timeout,
            SendTimeout = HostFixture.Timeout,
        };
        await AssertFailsQuickly<ProtocolException>(text, fixture.Host.GetEndpointAddress("/tcp"));
    }

    [Fact]
    public async Task Streamed_client_on_a_buffered_endpoint_gets_a_framing_fault()
    {
        // Streamed transfer uses the singleton-unsized framing mode; this endpoint serves duplex sessions only.
        var streamed = (NetTcpBinding)Bindings.Create("tcp");
        streamed.TransferMode = TransferMode.Streamed;
        await AssertFailsQuickly<CommunicationException>(streamed, fixture.Host.GetEndpointAddress("/tcp"));
    }

    [Fact]
    public async Task Tcp_client_dialling_an_unknown_path_gets_endpoint_not_found()
    {
        var address = new UriBuilder(fixture.Host.GetEndpointAddress("/tcp")) { Path = "/nowhere" }.Uri;
        await AssertFailsQuickly<EndpointNotFoundException>(Bindings.Create("tcp"), address);
    }

    [Fact]
    public async Task Text_client_on_the_binary_http_endpoint_is_refused()
    {
        await AssertFailsQuickly<ProtocolException>(Bindings.Create("text"), fixture.Host.GetEndpointAddress("/bin"));
    }

    [Fact]
    public async Task Binary_client_on_the_text_http_endpoint_is_refused()
    {
        await AssertFailsQuickly<ProtocolException>(Bindings.Create("bin"), fixture.Host.GetEndpointAddress("/text"));
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Request_over_the_servers_MaxReceivedMessageSize_fails_quickly(string transport)
    {
        // The client allows large messages; the server endpoint keeps the default 64 KB.
        var factory = Bindings.Factory<ITestService>(fixture.Host, transport, HostFixture.PathOf(transport), Bindings.Create(transport, large: true));
        await using var client = await TestClient.OpenAsync(factory);
        var watch = Stopwatch.StartNew();
        await Assert.ThrowsAnyAsync<CommunicationException>(() => client.Proxy.EchoDataSetAsync(TestData.CreateDataSet(5_000)));
        Assert.True(watch.Elapsed < Quick, $"Failing took {watch.Elapsed}.");
    }

    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Server_reader_quotas_apply_and_name_the_setting(string transport)
    {
        // WCF relaxes a default MaxStringContentLength for buffered messages; an explicit one is enforced.
        Binding strict = Bindings.Create(transport, large: true, maxStringContentLength: 10_000);
        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.HttpUnixSocketPath = UnixSocketHttp.NewPath();
            b.AddService<ITestService>(new TestService())
                .AddNetTcpEndpoint<ITestService>("/strict-tcp", Bindings.IsTcp(transport) ? strict : Bindings.Create("tcp"))
                .AddHttpEndpoint<ITestService>("/strict-http", Bindings.IsTcp(transport) ? Bindings.Create("text") : strict);
        });
        string path = Bindings.IsTcp(transport) ? "/strict-tcp" : "/strict-http";
        await using var client = await TestClient.OpenAsync(
            Bindings.Factory<ITestService>(host, transport, path, Bindings.Create(transport, large: true)));

        Assert.Equal(9_000, client.Proxy.Echo(new string('q', 9_000)).Length);
        // The client maps a DeserializationFailed fault to ProtocolException on SOAP 1.1, to FaultException on SOAP 1.2.
        CommunicationException fault = Assert.ThrowsAny<CommunicationException>(() => client.Proxy.Echo(new string('q', 20_000)));
        Assert.True(fault is FaultException or ProtocolException, fault.GetType().FullName);
        Assert.Contains("request of operation 'Echo'", fault.Message, StringComparison.Ordinal);
        Assert.Contains("MaxStringContentLength", fault.Message, StringComparison.Ordinal);
        Assert.Equal("still usable", client.Proxy.Echo("still usable"));
    }

    [Fact]
    public async Task Tcp_session_survives_an_oversized_request()
    {
        var factory = new ChannelFactory<ITestService>(
            Bindings.Create("tcp", large: true), new EndpointAddress(fixture.Host.GetEndpointAddress("/tcp")));
        await using var client = await TestClient.OpenAsync(factory);
        FaultException fault = await Assert.ThrowsAsync<FaultException>(() => client.Proxy.EchoDataSetAsync(TestData.CreateDataSet(5_000)));
        Assert.Contains("MaxReceivedMessageSize", fault.Message, StringComparison.Ordinal);
        Assert.Equal(3, await client.Proxy.AddAsync(1, 2));
    }

    private static async Task AssertFailsQuickly<TException>(Binding binding, Uri address)
        where TException : Exception
    {
        var factory = new ChannelFactory<ITestService>(binding, new EndpointAddress(address));
        var watch = Stopwatch.StartNew();
        try
        {
            await Assert.ThrowsAnyAsync<TException>(async () =>
            {
                await using var client = await TestClient.OpenAsync(factory);
                await client.Proxy.AddAsync(1, 2);
            });
        }
        finally
        {
            factory.Abort();
        }

        Assert.True(watch.Elapsed < Quick, $"Failing took {watch.Elapsed}.");
    }
}
