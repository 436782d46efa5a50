using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// A peer on this machine: which addresses count as one, that the measuring adaptive policy sends to it raw without a
/// decision and keeps it out of the link estimate, and that a policy told the link (or a static one) is unaffected.
/// </summary>
public sealed class LocalPeerTests
{
    private const int Message = 150_000;

    [Theory]
    [InlineData("net.tcp://127.0.0.1:8080/orders", true)]
    [InlineData("net.tcp://127.8.9.10/orders", true)]
    [InlineData("http://localhost:5000/orders", true)]
    [InlineData("http://[::1]:5000/orders", true)]
    [InlineData("net.uds:///tmp/orders.sock", true)]
    [InlineData("net.pipe://server/orders", true)]
    [InlineData("net.tcp://10.77.0.2:8080/orders", false)]
    [InlineData("http://orders.example.com/orders", false)]
    [InlineData("http://[2001:db8::1]/orders", false)]
    public void A_client_knows_a_local_peer_by_the_address_it_sends_to(string address, bool local) =>
        Assert.Equal(local, LocalPeers.IsLocal(new Uri(address)));

    [Fact]
    public void A_relative_or_missing_address_is_not_local()
    {
        Assert.False(LocalPeers.IsLocal(new Uri("orders", UriKind.Relative)));
        Assert.False(LocalPeers.IsLocal((Uri?)null));
    }

    [Theory]
    [InlineData("127.0.0.1", true)]
    [InlineData("127.0.0.53", true)]
    [InlineData("::1", true)]
    [InlineData("::ffff:127.0.0.1", true)]
    [InlineData("10.77.0.1", false)]
    [InlineData("::ffff:10.77.0.1", false)]
    [InlineData("fe80::1", false)]
    [InlineData("", false)]
    [InlineData("localhost", false)]
    [InlineData(null, false)]
    public void A_service_knows_a_local_peer_by_the_connection_s_remote_address(string? address, bool local) =>
        Assert.Equal(local, LocalPeers.IsLocal(address));

    [Fact]
    public void The_measuring_policy_sends_raw_to_a_local_peer_and_leaves_it_out_of_the_link_estimate()
    {
        var env = new FakeEnvironment();
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 10_000_000, measureLink: true, goal: CompressionGoal.Throughput);
        var settings = new CompressionSettings(CompressionCodec.Zstd, 3, 1024, 1 << 20, policy);
        byte[] message = TestData.Text(Message);
        Assert.True(settings.WantsPeer);
        double before = policy.Link.Estimate(env.Timestamp, out string priorSource);
        for (int i = 0; i < 400; i++)
        {
            CompressionChoice choice = settings.Choose("urn:a", message, message.Length, localPeer: true);
            Assert.Equal(CompressionDecisionReason.LocalPeer, choice.Reason);
            Assert.Null(choice.Codec);
            settings.ReportSent(choice, new CompressionOutcome(true, null, 0, Message, Message + 11, 0));
            env.Advance(0.01);
        }

        // Four seconds of 150 KB every 10 ms would read as a 15 MB/s link against the 1.25 MB/s prior; the estimate did not move.
        Assert.Equal(before, policy.Link.Estimate(env.Timestamp, out string source));
        Assert.Equal(priorSource, source);
        // The same message to a remote peer is the model's to decide.
        Assert.NotEqual(CompressionDecisionReason.LocalPeer, settings.Choose("urn:a", message, message.Length, localPeer: false).Reason);
    }

    [Fact]
    public void A_local_peer_still_gets_the_floor_first()
    {
        var env = new FakeEnvironment();
        var settings = new CompressionSettings(CompressionCodec.Zstd, 3, 1024, 1 << 20, PolicyWorld.Adaptive(env, 1_000_000_000, measureLink: true));
        Assert.Equal(CompressionDecisionReason.BelowFloor, settings.Choose("urn:a", TestData.Text(100), 100, localPeer: true).Reason);
    }

    [Fact]
    public void A_policy_told_the_link_and_a_static_one_compress_for_a_local_peer()
    {
        var env = new FakeEnvironment();
        byte[] message = TestData.Text(Message);
        var told = new CompressionSettings(CompressionCodec.Zstd, 3, 1024, 1 << 20, PolicyWorld.Adaptive(env, 10_000_000, measureLink: false));
        var fixedZstd = new CompressionSettings(CompressionCodec.Zstd, 3, 1024, 1 << 20);
        Assert.False(told.WantsPeer);
        Assert.False(fixedZstd.WantsPeer);
        CompressionChoice toldChoice = told.Choose("urn:a", message, message.Length, localPeer: true);
        Assert.NotEqual(CompressionDecisionReason.LocalPeer, toldChoice.Reason);
        Assert.NotNull(toldChoice.Codec);
        Assert.Equal(CompressionCodec.Zstd, fixedZstd.Choose("urn:a", message, message.Length, localPeer: true).Codec);
    }

    [Fact]
    public void The_options_turn_the_rule_off_for_a_local_peer_that_forwards_over_a_link()
    {
        Assert.True(CompressionSettings.From(CompressionOptions.Adaptive, 1 << 20).WantsPeer);
        Assert.False(CompressionSettings.From(CompressionOptions.Adaptive with { RawToLocalPeers = false }, 1 << 20).WantsPeer);
        Assert.False(CompressionSettings.From(CompressionOptions.Adaptive with { MeasureLink = false }, 1 << 20).WantsPeer);
        Assert.False(CompressionSettings.From(CompressionOptions.Rules2011, 1 << 20).WantsPeer);
    }
}
