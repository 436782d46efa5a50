using Surrogate.StandInHost;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The compression suite's host on the stand-in host, which serves each endpoint with the client's own (compressing) binding.</summary>
public abstract class StandInCompressionHost : CompressionHost
{
    protected override async Task<IShopServer> StartAsync(IReadOnlyList<CompressionVariant> variants)
    {
        SoapServiceHost host = await SoapServiceHost.StartAsync(b =>
        {
            b.AddService<IOrderService>(Service);
            foreach (CompressionVariant variant in variants)
            {
                if (IsNetTcp)
                {
                    b.AddNetTcpEndpoint<IOrderService>(variant.Path, variant.ClientBinding(netTcp: true, Log));
                }
                else
                {
                    b.AddHttpEndpoint<IOrderService>(variant.Path, variant.ClientBinding(netTcp: false, Log));
                }
            }
        });
        return new StandInServer(host);
    }

    private sealed class StandInServer(SoapServiceHost host) : IShopServer
    {
        public Uri GetEndpointAddress(string path) => host.GetEndpointAddress(path);

        public ICountingRelay CreateRelay() => new CountingProxy(host.GetEndpointAddress(CompressionVariant.Plain.Path).Port);

        public ValueTask DisposeAsync() => host.DisposeAsync();
    }
}

public sealed class StandInNetTcpCompressionHost : StandInCompressionHost
{
    public override bool IsNetTcp => true;

    public override string HostName => "stand-in net.tcp";
}

public sealed class StandInHttpCompressionHost : StandInCompressionHost
{
    public override bool IsNetTcp => false;

    public override string HostName => "stand-in HTTP";
}

/// <summary>
/// The stand-in host answers a content type it does not serve with a framing fault (net.tcp) or 415 (HTTP): the
/// client's ProtocolException names the content type it sent.
/// </summary>
public sealed class StandInNetTcpCompressionTests(StandInNetTcpCompressionHost host, ITestOutputHelper output)
    : StreamedCompressionContract(host, output), IClassFixture<StandInNetTcpCompressionHost>
{
    protected override void ExpectPlainClientError(Exception outcome) => AssertRefused(outcome, "net.tcp");

    protected override void ExpectCompressingClientError(Exception outcome)
    {
        AssertRefused(outcome, "net.tcp");
        Assert.Contains("surrogate-compressed", outcome.Message, StringComparison.Ordinal);
    }
}

public sealed class StandInHttpCompressionTests(StandInHttpCompressionHost host, ITestOutputHelper output)
    : CompressionContract(host, output), IClassFixture<StandInHttpCompressionHost>
{
    protected override void ExpectPlainClientError(Exception outcome) => AssertRefused(outcome, "http");

    protected override void ExpectCompressingClientError(Exception outcome)
    {
        AssertRefused(outcome, "http");
        Assert.Contains("surrogate-compressed", outcome.Message, StringComparison.Ordinal);
    }
}
