using System.Data;
using System.Diagnostics;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Surrogate.Tests.Fixtures;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The contract suite every transport runs: real sockets (TCP on 127.0.0.1, or Unix domain sockets), the real WCF
/// client, a service host (the stand-in host, or CoreWCF), and a counting relay in between that shows which format actually travelled.
/// </summary>
public abstract partial class TransportContract(ShopHost host, ITestOutputHelper output)
{
    private static readonly TimeSpan FaultDeadline = TimeSpan.FromSeconds(5);

    protected ShopHost Host => host;

    [Theory]
    [MemberData(nameof(FidelityFixtures.All), MemberType = typeof(FidelityFixtures))]
    public async Task Fidelity_case_round_trips_as_the_payload(string fixture)
    {
        IShop client = await LearnedClientAsync<IShop>(ShopHost.NewLarge);
        DataSet expected = FidelityFixtures.Create(fixture);
        Host.Proxy.Reset();
        DataSet actual = await client.EchoAsync(FidelityFixtures.Create(fixture));
        AssertFormat(request: true, reply: true);
        Same(expected, actual);
    }

    [Fact]
    public async Task Typed_dataset_comes_back_as_the_contract_type()
    {
        IShop client = await LearnedClientAsync<IShop>(ShopHost.NewLarge);
        ShopDataSet expected = TypedShop();
        Host.Proxy.Reset();
        ShopDataSet actual = await client.EchoTypedAsync(TypedShop());
        AssertFormat(request: true, reply: true);
        Assert.IsType<ShopDataSet>(actual);
        Same(expected, actual);

        // Designer-style: typed tables and rows, a relation, and typed accessors that must reach the data that came back.
        OrdersTypedDataSet expectedOrders = OrdersTypedDataSet.CreateSample();
        Host.Proxy.Reset();
        OrdersTypedDataSet orders = await client.EchoOrdersTypedAsync(OrdersTypedDataSet.CreateSample());
        AssertFormat(request: true, reply: true);
        Assert.IsType<OrdersTypedDataSet>(orders);
        Same(expectedOrders, orders);
        Assert.Same(orders.Tables["Order"], orders.Order);
        Assert.Equal("renamed", orders.Order[0].Customer);
    }

    [Fact]
    public async Task Tables_inside_a_data_contract_and_a_list_round_trip()
    {
        IShop client = await LearnedClientAsync<IShop>(ShopHost.NewLarge);
        DataSet source = SampleData.Orders();
        var envelope = new Envelope { Title = "e", Table = source.Tables[0].Copy(), Tables = [source.Tables[1].Copy()], Sets = [SampleData.Orders(4)] };
        Host.Proxy.Reset();
        Envelope back = await client.EchoEnvelopeAsync(envelope);
        AssertFormat(request: true, reply: true);
        Assert.Equal("e", back.Title);
        Same(envelope.Table, back.Table!);
        Same(envelope.Tables[0], back.Tables![0]);
        Same(envelope.Sets[0], back.Sets![0]);

        List<DataTable> sent = [source.Tables[0].Copy(), source.Tables[1].Copy()];
        List<DataTable> tables = await client.EchoTablesAsync(sent);
        Assert.Equal(2, tables.Count);
        Same(sent[0], tables[0]);
        Same(sent[1], tables[1]);
    }

    [Fact]
    public async Task Out_and_ref_parameters_round_trip()
    {
        IShop client = await LearnedClientAsync<IShop>(ShopHost.NewLarge);
        DataSet input = SampleData.Orders();
        DataTable table = SampleData.Orders(6).Tables[1].Copy();
        DataTable expectedTable = table.Copy();
        Host.Proxy.Reset();
        // Sync operations are sync-over-async inside the client; keep them off the test thread.
        (DataSet result, DataTable refTable, DataSet copy) = await Task.Run(() =>
        {
            DataTable t = table;
            DataSet r = client.Swap(input, ref t, out DataSet c);
            return (r, t, c);
        });
        AssertFormat(request: true, reply: true);
        Same(input, result);
        Same(input, copy);
        Same(expectedTable, refTable);
    }

    [Theory]
    [InlineData(true, true)]
    [InlineData(true, false)]
    [InlineData(false, true)]
    [InlineData(false, false)]
    public async Task Rolling_upgrade_works_in_every_combination(bool newClient, bool newServer)
    {
        string path = newServer ? ShopHost.New : ShopHost.Old;
        DataSet value = SampleData.Orders();
        Func<DataSet, Task<DataSet>> echo = newClient
            ? Open<IShop>(path).EchoAsync
            : Open<IShopOld>(path).EchoAsync;

        for (int call = 0; call < 2; call++)
        {
            Host.Proxy.Reset();
            DataSet back = await echo(value);
            Same(value, back);
            bool both = newClient && newServer;
            // The first request of a new client is plain XML; the service answers in kind once announced.
            AssertFormat(request: both && call > 0, reply: both);
            output.WriteLine($"{Host.TransportName} client {(newClient ? "new" : "old")} / service {(newServer ? "new" : "old")} call {call}: " +
                $"request {Host.Proxy.Sent.Length} B, reply {Host.Proxy.Received.Length} B");
        }
    }

    [Fact]
    public async Task Old_and_new_clients_calling_concurrently_each_get_their_format()
    {
        IShop fresh = await LearnedClientAsync<IShop>(ShopHost.New);
        IShopOld old = Open<IShopOld>(ShopHost.New);
        DataSet value = SampleData.Orders();
        var calls = Enumerable.Range(0, 24).Select(i => i % 2 == 0 ? fresh.EchoAsync(value) : old.EchoAsync(value));
        DataSet[] results = await Task.WhenAll(calls);
        foreach (DataSet back in results)
        {
            Same(value, back);
        }
    }

    [Fact]
    public async Task Second_endpoint_of_the_same_contract_also_negotiates()
    {
        IShop client = await LearnedClientAsync<IShop>(ShopHost.NewSecond);
        Host.Proxy.Reset();
        Assert.Equal(SampleData.Orders().Tables.Cast<DataTable>().Sum(t => t.Rows.Count), await client.CountRowsAsync(SampleData.Orders()));
        AssertFormat(request: true, reply: false);
    }

    [Fact]
    public async Task A_payload_the_codec_refuses_is_a_fault_quickly()
    {
        IShopRaw raw = Open<IShopRaw>(ShopHost.New);
        var clock = Stopwatch.StartNew();
        Message reply = await raw.SendAsync(ForgedCountRows()).WaitAsync(FaultDeadline);
        clock.Stop();
        Assert.True(reply.IsFault, "a refused payload must come back as a fault");
        MessageFault fault = MessageFault.CreateFault(reply, 64 * 1024);
        string reason = fault.Reason.GetMatchingTranslation(System.Globalization.CultureInfo.GetCultureInfo("en-US")).Text;
        output.WriteLine($"{Host.TransportName}: fault after {clock.ElapsedMilliseconds} ms: {reason}");
        Assert.Contains("DataSetSurrogate", reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Surrogate_is_smaller_on_the_wire_than_plain_xml_for_ten_thousand_rows()
    {
        DataSet value = TenThousandRows();
        IShopOld plainClient = Open<IShopOld>(ShopHost.OldLarge);
        IShop surrogateClient = await LearnedClientAsync<IShop>(ShopHost.NewLarge);

        Host.Proxy.Reset();
        Assert.Equal(10_000, await plainClient.CountRowsAsync(value));
        long plain = Host.Proxy.Sent.Length;
        AssertFormat(request: false, reply: false);

        Host.Proxy.Reset();
        Assert.Equal(10_000, await surrogateClient.CountRowsAsync(value));
        long surrogate = Host.Proxy.Sent.Length;
        AssertFormat(request: true, reply: false);

        output.WriteLine($"{Host.TransportName}: 10,000-row request on the wire: plain DataSet XML {plain:N0} B, surrogate {surrogate:N0} B ({100.0 * surrogate / plain:F1}%)");
        Assert.True(surrogate < plain, $"surrogate {surrogate} B must be smaller than plain {plain} B");
    }

    [Fact]
    public async Task What_passes_as_plain_xml_under_default_quotas_passes_as_the_payload()
    {
        DataSet value = WideRows(rows: 300, textLength: 100);
        Assert.True(DataSetSerializer.Serialize(value).Length > new XmlDictionaryReaderQuotas().MaxArrayLength);
        DataSet plain = await Open<IShopOld>(ShopHost.Old).EchoAsync(value);
        Same(value, plain);

        IShop client = await LearnedClientAsync<IShop>(ShopHost.New);
        Host.Proxy.Reset();
        DataSet back = await client.EchoAsync(value);
        AssertFormat(request: true, reply: true);
        Same(value, back);
    }

    [Fact]
    public async Task A_reply_over_the_message_size_quota_fails_quickly_and_names_the_setting_where_wcf_can()
    {
        // The service accepts large messages; this client keeps the default 64 KB MaxReceivedMessageSize.
        IShop client = Open<IShop>(ShopHost.NewLarge, large: false);
        DataSet value = WideRows(rows: 2000, textLength: 100);
        var error = await Assert.ThrowsAnyAsync<CommunicationException>(() => client.EchoAsync(value).WaitAsync(FaultDeadline * 3));
        output.WriteLine($"{Host.TransportName}: {error.GetType().Name}: {error.Message}");
        if (Host.QuotaErrorNamesTheSetting)
        {
            Assert.Contains("MaxReceivedMessageSize", error.ToString(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Measurements_are_published_per_operation_direction_and_format()
    {
        IShop client = await LearnedClientAsync<IShop>(ShopHost.New);
        using var recorder = new TelemetryRecorder();
        DataSet back = await client.EchoAsync(SampleData.Orders());
        Same(SampleData.Orders(), back);

        // Client and service run in this process: each writes once and reads once.
        Assert.Equal(2, recorder.Count(SurrogateTelemetry.ValuesInstrument, "Echo", "send", "surrogate"));
        Assert.Equal(2, recorder.Count(SurrogateTelemetry.ValuesInstrument, "Echo", "receive", "surrogate"));
        Assert.Equal(4, recorder.Count(SurrogateTelemetry.PayloadSizeInstrument, "Echo", null, "surrogate"));
        Assert.Equal(2, recorder.Count(SurrogateTelemetry.SerializeDurationInstrument, "Echo", "send", "surrogate"));
        Assert.Equal(2, recorder.Count(SurrogateTelemetry.DeserializeDurationInstrument, "Echo", "receive", "surrogate"));
        Assert.True(recorder.Sum(SurrogateTelemetry.PayloadSizeInstrument, "Echo", "send", "surrogate") > 0);
        Assert.Contains(recorder.Activities, a => a.OperationName == "DataSetSurrogate.Serialize" && (string?)a.GetTagItem("operation") == "Echo");
        Assert.Contains(recorder.Activities, a => a.OperationName == "DataSetSurrogate.Deserialize" && (string?)a.GetTagItem("format") == "surrogate");
    }

    /// <summary>Field-by-field comparison: schema, constraints, relations, and every row's state, versions and errors.</summary>
    private static void Same(DataSet expected, DataSet actual) => DataSetAssert.Equivalent(expected, actual);

    private static void Same(DataTable expected, DataTable actual) => DataSetAssert.Equivalent(expected, actual);

    /// <summary>A client of a fresh factory after one call, so its endpoint has learned what the service reads.</summary>
    private async Task<TContract> LearnedClientAsync<TContract>(string path)
        where TContract : class
    {
        TContract client = Open<TContract>(path);
        if (client is IShop shop)
        {
            await shop.CountRowsAsync(SampleData.Orders(1));
        }

        return client;
    }

    private TContract Open<TContract>(string path, bool? large = null)
    {
        ChannelFactory<TContract> factory = Host.CreateFactory<TContract>(path, large);
        return factory.CreateChannel();
    }

    private void AssertFormat(bool request, bool reply, string? call = null)
    {
        string what = call is null ? Host.TransportName : $"{Host.TransportName}, {call}";
        Assert.True(request == CountingProxy.Contains(Host.Proxy.Sent, SurrogatePayload.PayloadNamespace),
            $"{what}: request should travel as {(request ? "the payload" : "plain XML")}");
        Assert.True(reply == CountingProxy.Contains(Host.Proxy.Received, SurrogatePayload.PayloadNamespace),
            $"{what}: reply should travel as {(reply ? "the payload" : "plain XML")}");
    }

    private Message ForgedCountRows()
    {
        MessageVersion version = Host.CreateBinding(large: false).MessageVersion;
        return Message.CreateMessage(version, Shop.Action("CountRows"), new ForgedBody());
    }

    private static ShopDataSet TypedShop()
    {
        var typed = new ShopDataSet();
        typed.Items.Rows.Add("pen", 1.5);
        typed.AcceptChanges();
        typed.Items.Rows.Add("ink", 2.5);
        typed.Items.Rows[0]["Price"] = 1.75;
        return typed;
    }

    private static DataSet TenThousandRows()
    {
        var ds = new DataSet("Rows");
        DataTable table = ds.Tables.Add("Rows");
        table.Columns.Add("Name", typeof(string));
        table.Columns.Add("City", typeof(string));
        for (int i = 0; i < 10_000; i++)
        {
            table.Rows.Add("Name " + i, "City " + (i % 97));
        }

        ds.AcceptChanges();
        return ds;
    }

    internal static DataSet WideRows(int rows, int textLength)
    {
        var ds = new DataSet("Wide");
        DataTable table = ds.Tables.Add("T");
        table.Columns.Add("C", typeof(string));
        var random = new Random(3);
        for (int i = 0; i < rows; i++)
        {
            table.Rows.Add(SampleData.Text(random, textLength));
        }

        return ds;
    }

    /// <summary>A CountRows request whose DataSet is marked as the payload but is not one.</summary>
    private sealed class ForgedBody() : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement("CountRows", Shop.Namespace);
            writer.WriteStartElement("value", Shop.Namespace);
            writer.WriteAttributeString("dss", SurrogatePayload.PayloadAttribute, SurrogatePayload.PayloadNamespace, "1");
            writer.WriteBase64([0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x01, 0x02], 0, 7);
            writer.WriteEndElement();
            writer.WriteEndElement();
        }
    }
}
