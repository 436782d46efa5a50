using System.ServiceModel;
using System.ServiceModel.Description;
using System.Text.RegularExpressions;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// Peers that do not match, and replies damaged on the way: each call fails promptly with a CommunicationException
/// (never a TimeoutException); the messages are written to the test output for docs/compression.md's table.
/// </summary>
public abstract partial class CompressionContract
{
    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_plain_client_of_a_compressing_service_fails_promptly(string subject)
    {
        Exception outcome = await CallAsync(CompressionVariant.Plain, CompressionSubject.Named(subject).Main, client => client.GetOrdersAsync(10));
        output.WriteLine($"{host.HostName}, plain client -> {subject} service: {outcome.GetType().Name}: {outcome.Message}");
        ExpectPlainClientError(outcome);
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_compressing_client_of_a_plain_service_fails_promptly(string subject)
    {
        Exception outcome = await CallAsync(CompressionSubject.Named(subject).Main, CompressionVariant.Plain, client => client.GetOrdersAsync(10));
        output.WriteLine($"{host.HostName}, {subject} client -> plain service: {outcome.GetType().Name}: {outcome.Message}");
        ExpectCompressingClientError(outcome);
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_client_of_the_built_in_compression_fails_promptly_against_ours(string subject)
    {
        Exception outcome = await CallAsync(CompressionVariant.BuiltInGZip, CompressionSubject.Named(subject).Main, client => client.GetOrdersAsync(10));
        output.WriteLine($"{host.HostName}, CompressionFormat.GZip client -> {subject} service: {outcome.GetType().Name}: {outcome.Message}");
        ExpectPlainClientError(outcome);
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_corrupted_compressed_reply_gives_the_frame_error(string subject)
    {
        CompressionVariant encoder = CompressionSubject.Named(subject).Main;
        await using var relay = new FaultyRelay(Port, reply: new Fault(CorruptAt: 6_000));
        Exception outcome = await CallAsync(encoder, encoder, client => client.GetOrdersAsync(1_000), Via(relay, encoder));
        output.WriteLine($"{host.HostName} {subject}, corrupted reply: {outcome.GetType().Name}: {outcome.Message}");
        Assert.IsAssignableFrom<CommunicationException>(outcome);
        if (host.ReadErrorsReachTheCaller)
        {
            Assert.IsType<Compression.MessageCompressionException>(outcome);
            Assert.Contains("The compressed message is corrupt", outcome.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_truncated_compressed_reply_fails_the_call(string subject)
    {
        CompressionVariant encoder = CompressionSubject.Named(subject).Main;
        await using var relay = new FaultyRelay(Port, reply: new Fault(CutAfter: 6_000));
        Exception outcome = await CallAsync(encoder, encoder, client => client.GetOrdersAsync(1_000), Via(relay, encoder));
        output.WriteLine($"{host.HostName} {subject}, truncated reply: {outcome.GetType().Name}: {outcome.Message}");
    }

    /// <summary>What a plain (or CompressionFormat) client is told by this host when it calls a compressing endpoint.</summary>
    protected abstract void ExpectPlainClientError(Exception outcome);

    /// <summary>What a compressing client is told by this host when it calls a plain endpoint.</summary>
    protected abstract void ExpectCompressingClientError(Exception outcome);

    /// <summary>
    /// A refusal as the client reports it: a ProtocolException naming the service at <paramref name="scheme"/>://127.0.0.1
    /// and, where the host says why, the content type sent. The words around them are System.ServiceModel's own, in the
    /// machine's language (Turkish under tr_TR), so they are not what is checked.
    /// </summary>
    protected static void AssertRefused(Exception outcome, string scheme, bool namesContentType = true)
    {
        Assert.IsType<ProtocolException>(outcome);
        if (namesContentType)
        {
            Assert.Contains("application/soap+msbin", outcome.Message, StringComparison.Ordinal);
        }

        Assert.Matches($@"{Regex.Escape(scheme)}://127\.0\.0\.1:\d+/", outcome.Message);
    }

    private int Port => host.Server.GetEndpointAddress(CompressionVariant.Zstd.Path).Port;

    private Uri Via(FaultyRelay relay, CompressionVariant endpoint)
    {
        var probe = new ServiceEndpoint(ContractDescription.GetContract(typeof(IOrderService)), null, new EndpointAddress(host.Server.GetEndpointAddress(endpoint.Path)));
        relay.Route(probe);
        return probe.Address.Uri;
    }
}
