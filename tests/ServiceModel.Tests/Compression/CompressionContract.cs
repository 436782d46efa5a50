using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;
using Surrogate.Compression;
using Surrogate.Perf.Scenarios;
using Surrogate.Tests.Fixtures;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The compression suite every host and transport runs: every codec and level (and raw frames, and WCF's own
/// CompressionFormat) over real sockets with the 2011 Orders call and DataSets, plain and as the payload; then, for
/// each <see cref="CompressionSubject"/> (zstd, the adaptive policy, the 2011 rules), raw fallback, mismatched peers,
/// the decompressed-size limit, damaged replies and streamed transfer; and static and adaptive ends with each other.
/// Messages are small except in the one large case per codec.
/// </summary>
public abstract partial class CompressionContract(CompressionHost host, ITestOutputHelper output)
{
    /// <summary>A string every serialized order list contains, in clear unless the message was compressed.</summary>
    private static readonly string Marker = MetzgerOrders.Take(1)[0].CreditCardNumber!;

    protected CompressionHost Host => host;

    public static TheoryData<string> MatrixVariants() => new([.. CompressionVariant.Matrix().Select(v => v.Name), CompressionVariant.Raw.Name]);

    public static TheoryData<string> CodecVariants() => new([.. CompressionVariant.Codecs().Select(v => v.Name), CompressionVariant.Raw.Name]);

    [Theory]
    [MemberData(nameof(MatrixVariants))]
    public async Task Orders_and_datasets_round_trip(string name)
    {
        CompressionVariant variant = CompressionVariant.Named(name);
        await UseAsync(variant, async client =>
        {
            host.Relay.Reset();
            SameOrders(MetzgerOrders.Take(10), await client.GetOrdersAsync(10));
            byte codec = variant == CompressionVariant.Raw ? (byte)0 : (byte)variant.Options!.Codec;
            Assert.True(Frames(host.Relay.Received, codec), "the reply should be a frame of its codec");
            if (variant.Options!.Codec != CompressionCodec.Lz4)
            {
                // LZ4 leaves short literals such as a card number as they are; the others hide them.
                Assert.Equal(variant == CompressionVariant.Raw, CountingProxy.Contains(host.Relay.Received, Marker));
            }

            DataSet plain = SampleData.Orders(rows: 30);
            DataSetAssert.Equivalent(plain, await client.EchoDataSetAsync(plain));
            for (int call = 0; call < 2; call++)
            {
                DataSetAssert.Equivalent(plain, await client.EchoSurrogateAsync(plain));
            }
        });
    }

    [Theory]
    [MemberData(nameof(CodecVariants))]
    public async Task Large_messages_round_trip(string name)
    {
        CompressionVariant variant = CompressionVariant.Named(name);
        DataSet dataSet = OrdersScenario.Create(orders: 1_000, seed: 7);
        await UseAsync(variant, async client =>
        {
            host.Relay.Reset();
            SameOrders(MetzgerOrders.Take(1_000), await client.GetOrdersAsync(1_000));
            long orders = host.Relay.Received.Length;
            host.Relay.Reset();
            DataSetAssert.Equivalent(dataSet, await client.EchoDataSetAsync(dataSet));
            long plain = host.Relay.Received.Length;
            await client.EchoSurrogateAsync(dataSet); // the first call learns that the service reads the payload
            host.Relay.Reset();
            DataSetAssert.Equivalent(dataSet, await client.EchoSurrogateAsync(dataSet));
            long surrogate = host.Relay.Received.Length;
            output.WriteLine($"{host.HostName} {name}: reply bytes on the wire: 1,000 orders {orders:N0}; Orders DataSet (1,000) plain {plain:N0}, [DataSetSurrogate] {surrogate:N0}");
        });
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task Small_and_incompressible_messages_travel_raw(string subject)
    {
        await UseAsync(CompressionSubject.Named(subject).Main, async client =>
        {
            host.Relay.Reset();
            Assert.Equal([1, 2, 3], await client.EchoBytesAsync([1, 2, 3]));
            Assert.True(Frames(host.Relay.Sent, 0), "a small request goes as a raw frame");

            byte[] random = new byte[200_000];
            new Random(5).NextBytes(random);
            host.Relay.Reset();
            Assert.Equal(random, await client.EchoBytesAsync(random));
            Assert.True(host.Relay.Sent.Length > random.Length, "random bytes cannot shrink");
            Assert.True(host.Relay.Sent.AsSpan().IndexOf(random.AsSpan(1000, 64)) >= 0, "they travel as they are");
        });
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_request_over_the_services_limit_is_refused_before_the_operation_runs(string subject)
    {
        CompressionSubject encoder = CompressionSubject.Named(subject);
        int before = host.Service.Calls;
        var outcome = await CallAsync(encoder.Main, encoder.Limited, client => client.EchoBytesAsync(new byte[4 << 20]));
        Assert.IsAssignableFrom<CommunicationException>(outcome);
        Assert.Equal(before, host.Service.Calls);
        output.WriteLine($"{host.HostName} {subject}, request over the service's limit: {outcome.GetType().Name}: {outcome.Message}");
        await UseAsync(encoder.Main, async client => Assert.Equal(3, (await client.EchoBytesAsync(new byte[3])).Length));
    }

    [Theory]
    [MemberData(nameof(CompressionSubject.Names), MemberType = typeof(CompressionSubject))]
    public async Task A_reply_over_the_clients_limit_is_refused(string subject)
    {
        CompressionSubject encoder = CompressionSubject.Named(subject);
        var outcome = await CallAsync(encoder.Limited, encoder.Main, client => client.GetOrdersAsync(1_000));
        output.WriteLine($"{host.HostName} {subject}, reply over the client's limit: {outcome.GetType().Name}: {outcome.Message}");
        Assert.IsAssignableFrom<CommunicationException>(outcome);
        if (host.ReadErrorsReachTheCaller)
        {
            Assert.Contains("limit of 65536 bytes", outcome.Message, StringComparison.Ordinal);
        }
    }

    /// <summary>Runs <paramref name="body"/> with a client of <paramref name="variant"/>; the channel is aborted after.</summary>
    protected async Task UseAsync(CompressionVariant variant, Func<IOrderService, Task> body)
    {
        ChannelFactory<IOrderService> factory = host.CreateFactory(variant);
        try
        {
            await body(factory.CreateChannel());
        }
        finally
        {
            factory.Abort();
        }
    }

    /// <summary>A call from a <paramref name="client"/> client to the <paramref name="endpoint"/> endpoint that must fail; its exception.</summary>
    protected async Task<Exception> CallAsync<T>(CompressionVariant client, CompressionVariant endpoint, Func<IOrderService, Task<T>> call, Uri? via = null)
    {
        ChannelFactory<IOrderService> factory = host.CreateFactory(client, endpoint, via, TimeSpan.FromSeconds(20));
        try
        {
            Exception? outcome = await Record.ExceptionAsync(async () => Assert.Fail($"the call returned {await call(factory.CreateChannel())}"));
            Assert.NotNull(outcome);
            Assert.IsNotType<TimeoutException>(outcome); // a hang until the timeout is what must not happen
            // A transport cut short may surface as its own IOException (the HTTP client's "response ended prematurely").
            Assert.True(outcome is CommunicationException or IOException, $"expected a CommunicationException, got {outcome}");
            return outcome;
        }
        finally
        {
            factory.Abort();
        }
    }

    /// <summary>Whether <paramref name="bytes"/> hold a frame header of <paramref name="codec"/> (0: raw).</summary>
    protected static bool Frames(byte[] bytes, byte codec) => bytes.AsSpan().IndexOf(new byte[] { 0xDC, 0x01, codec }) >= 0;

    /// <summary>Whether <paramref name="bytes"/> hold the frame header of any codec (not raw).</summary>
    protected static bool CompressedFrames(byte[] bytes) => Enum.GetValues<CompressionCodec>().Any(codec => Frames(bytes, (byte)codec));

    private static void SameOrders(Order[] expected, Order[] actual) => Assert.Equal(Serialize(expected), Serialize(actual));

    private static string Serialize(Order[] orders)
    {
        using var writer = new StringWriter();
        using (var xml = System.Xml.XmlWriter.Create(writer))
        {
            new DataContractSerializer(typeof(Order[])).WriteObject(xml, orders);
        }

        return writer.ToString();
    }
}
