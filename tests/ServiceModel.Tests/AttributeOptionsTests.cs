using System.Data;
using System.ServiceModel;
using System.ServiceModel.Description;
using Surrogate.Tests.Fixtures;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// <see cref="DataSetSurrogateAttribute.Options"/> set in code on each end (attribute arguments cannot carry a
/// record): limits refuse on the end that sets them, and an extra column type travels only when both ends register it.
/// A refusal on the service reaches the caller as a fault (FaultException over net.tcp; over BasicHttp the WCF client
/// reports the DeserializationFailed sender fault as a ProtocolException), both CommunicationExceptions with the reason.
/// </summary>
public sealed class AttributeOptionsTests
{
    public static TheoryData<string> Transports => new() { "net.tcp", "text" };

    private static readonly SurrogateOptions Days = new() { ExtraColumnTypes = [SurrogateColumnType.ForEnum<DayOfWeek>("day")] };

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task A_row_limit_on_the_service_refuses_a_larger_request(string transport)
    {
        await using var endpoint = await StartAsync(transport, service: new SurrogateOptions { MaxRows = 10 });
        IShop client = await LearnedAsync(endpoint, client: null);
        Assert.Equal(5, await client.CountRowsAsync(Rows(5)));
        var fault = await Assert.ThrowsAnyAsync<CommunicationException>(() => client.CountRowsAsync(Rows(11)));
        Assert.Contains(nameof(SurrogateOptions.MaxRows), fault.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task A_byte_limit_refuses_while_reading_on_the_service_and_on_the_client(string transport)
    {
        var small = new SurrogateOptions { MaxTotalBytes = 1024 };
        DataSet value = SampleData.Orders(rows: 200);
        Assert.True(DataSetSerializer.Serialize(value).Length > 4 * 1024);

        await using (var limitedService = await StartAsync(transport, service: small))
        {
            IShop client = await LearnedAsync(limitedService, client: null);
            var fault = await Assert.ThrowsAnyAsync<CommunicationException>(() => client.CountRowsAsync(value));
            AssertRefusedWhileReading(fault.Message);
        }

        await using var limitedClient = await StartAsync(transport, service: null);
        IShop limited = await LearnedAsync(limitedClient, client: small);
        var error = await Assert.ThrowsAsync<CommunicationException>(() => limited.EchoAsync(value));
        AssertRefusedWhileReading(error.Message);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task An_enum_column_travels_as_the_payload_when_both_ends_register_it(string transport)
    {
        DataSet value = DaysOfWeek();
        await using var endpoint = await StartAsync(transport, service: Days);
        IShop client = await LearnedAsync(endpoint, client: Days);
        endpoint.Relay.Reset();
        DataSetAssert.Equivalent(value, await client.EchoAsync(value));
        Assert.True(CountingProxy.Contains(endpoint.Relay.Sent, SurrogatePayload.PayloadNamespace), "the request should be the payload");
        Assert.True(CountingProxy.Contains(endpoint.Relay.Received, SurrogatePayload.PayloadNamespace), "the reply should be the payload");
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task An_enum_column_registered_on_one_end_only_is_refused_by_the_other_never_read_wrong(string transport)
    {
        DataSet value = DaysOfWeek();

        // Only the client registers it: its payload request names a column type the service does not allow.
        await using (var plainService = await StartAsync(transport, service: null))
        {
            IShop client = await LearnedAsync(plainService, client: Days);
            var fault = await Assert.ThrowsAnyAsync<CommunicationException>(() => client.EchoAsync(value));
            Assert.Contains(nameof(SurrogateOptions.ExtraColumnTypes), fault.Message, StringComparison.Ordinal);
        }

        // Only the service registers it: the client cannot write it (plain XML request), and refuses the payload reply.
        await using var daysService = await StartAsync(transport, service: Days);
        IShop plainClient = await LearnedAsync(daysService, client: null);
        daysService.Relay.Reset();
        var error = await Assert.ThrowsAsync<CommunicationException>(() => plainClient.EchoAsync(value));
        Assert.Contains(nameof(SurrogateOptions.ExtraColumnTypes), error.Message, StringComparison.Ordinal);
        Assert.False(CountingProxy.Contains(daysService.Relay.Sent, SurrogatePayload.PayloadNamespace), "the client's codec refuses the enum column");
    }

    private static void AssertRefusedWhileReading(string message)
    {
        Assert.Contains(nameof(SurrogateOptions.MaxTotalBytes), message, StringComparison.Ordinal);
        // "is more than": refused by the chunked read as soon as it passed the limit, not after reading the whole value.
        Assert.Contains("payload bytes is more than 1024", message, StringComparison.Ordinal);
    }

    private static Task<RelayedEndpoint> StartAsync(string transport, SurrogateOptions? service) =>
        RelayedEndpoint.StartAsync<IShop>(new ShopService(), TestBindings.Create(transport), e => SetOptions(e, service));

    /// <summary>A client whose endpoint has learned that the service reads the payload.</summary>
    private static async Task<IShop> LearnedAsync(RelayedEndpoint endpoint, SurrogateOptions? client)
    {
        IShop channel = endpoint.Open<IShop>(e => SetOptions(e, client));
        await channel.CountRowsAsync(Rows(1));
        return channel;
    }

    private static void SetOptions(ServiceEndpoint endpoint, SurrogateOptions? options) =>
        ((DataSetSurrogateAttribute)endpoint.Contract.ContractBehaviors[typeof(DataSetSurrogateAttribute)]).Options = options;

    private static DataSet Rows(int count)
    {
        var ds = new DataSet("Rows");
        DataTable table = ds.Tables.Add("T");
        table.Columns.Add("N", typeof(int));
        for (int i = 0; i < count; i++)
        {
            table.Rows.Add(i);
        }

        return ds;
    }

    private static DataSet DaysOfWeek()
    {
        var ds = new DataSet("Days");
        DataTable table = ds.Tables.Add("Day");
        table.Columns.Add("Day", typeof(DayOfWeek));
        table.Columns.Add("Note", typeof(string));
        foreach (DayOfWeek day in Enum.GetValues<DayOfWeek>())
        {
            table.Rows.Add(day, day.ToString());
        }

        ds.AcceptChanges();
        return ds;
    }
}
