using System.ServiceModel;
using System.ServiceModel.Description;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// Peers that do not match, and replies damaged on the way: each call fails promptly with a CommunicationException
/// (never a TimeoutException); the messages are written to the test output for docs/compression.md's table.
/// </summary>
public abstract partial class CompressionContract
{
    [Fact]
    public async Task A_plain_client_of_a_compressing_service_fails_promptly()
    {
        Exception outcome = await CallAsync(CompressionVariant.Plain, CompressionVariant.Zstd, client => client.GetOrdersAsync(10));
        output.WriteLine($"{host.HostName}, plain client -> compressing service: {outcome.GetType().Name}: {outcome.Message}");
        ExpectPlainClientError(outcome);
    }

    [Fact]
    public async Task A_compressing_client_of_a_plain_service_fails_promptly()
    {
        Exception outcome = await CallAsync(CompressionVariant.Zstd, CompressionVariant.Plain, client => client.GetOrdersAsync(10));
        output.WriteLine($"{host.HostName}, compressing client -> plain service: {outcome.GetType().Name}: {outcome.Message}");
        ExpectCompressingClientError(outcome);
    }

    [Fact]
    public async Task A_client_of_the_built_in_compression_fails_promptly_against_ours()
    {
        Exception outcome = await CallAsync(CompressionVariant.BuiltInGZip, CompressionVariant.Zstd, client => client.GetOrdersAsync(10));
        output.WriteLine($"{host.HostName}, CompressionFormat.GZip client -> our service: {outcome.GetType().Name}: {outcome.Message}");
        ExpectPlainClientError(outcome);
    }

    [Fact]
    public async Task A_corrupted_compressed_reply_gives_the_frame_error()
    {
        await using var relay = new FaultyRelay(Port, reply: new Fault(CorruptAt: 6_000));
        Exception outcome = await CallAsync(CompressionVariant.Zstd, CompressionVariant.Zstd, client => client.GetOrdersAsync(1_000), Via(relay));
        output.WriteLine($"{host.HostName}, corrupted reply: {outcome.GetType().Name}: {outcome.Message}");
        Assert.IsAssignableFrom<CommunicationException>(outcome);
        if (host.ReadErrorsReachTheCaller)
        {
            Assert.IsType<Compression.MessageCompressionException>(outcome);
            Assert.Contains("The compressed message is corrupt", outcome.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task A_truncated_compressed_reply_fails_the_call()
    {
        await using var relay = new FaultyRelay(Port, reply: new Fault(CutAfter: 6_000));
        Exception outcome = await CallAsync(CompressionVariant.Zstd, CompressionVariant.Zstd, client => client.GetOrdersAsync(1_000), Via(relay));
        output.WriteLine($"{host.HostName}, truncated reply: {outcome.GetType().Name}: {outcome.Message}");
    }

    /// <summary>What a plain (or CompressionFormat) client is told by this host when it calls a compressing endpoint.</summary>
    protected abstract void ExpectPlainClientError(Exception outcome);

    /// <summary>What a compressing client is told by this host when it calls a plain endpoint.</summary>
    protected abstract void ExpectCompressingClientError(Exception outcome);

    private int Port => host.Server.GetEndpointAddress(CompressionVariant.Zstd.Path).Port;

    private Uri Via(FaultyRelay relay)
    {
        var probe = new ServiceEndpoint(ContractDescription.GetContract(typeof(IOrderService)), null, new EndpointAddress(host.Server.GetEndpointAddress(CompressionVariant.Zstd.Path)));
        relay.Route(probe);
        return probe.Address.Uri;
    }
}
