using System.Data;
using Surrogate.Tests.Fixtures;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// DataSet operations over the streamed transfer modes on net.tcp and HTTP (the contract suite also runs whole over
/// TransferMode.Streamed): a value larger than the writer's staging limit goes out while it is encoded, both ways.
/// </summary>
public sealed class StreamedTransferTests
{
    public static TheoryData<string> Transports => new()
    {
        "net.tcp-streamed-request", "net.tcp-streamed-response", "text-streamed-request", "text-streamed-response",
    };

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task A_large_dataset_travels_as_the_payload_both_ways(string transport)
    {
        DataSet value = Rows(20_000);
        Assert.True(DataSetSerializer.Serialize(value).Length > PayloadContentWriter.StagingLimit, "the value must be written through");
        await using var endpoint = await RelayedEndpoint.StartAsync<IShop>(new ShopService(), TestBindings.Create(transport));
        IShop client = endpoint.Open<IShop>();
        Assert.Equal(3, await client.CountRowsAsync(Rows(3))); // learns that the service reads the payload

        endpoint.Relay.Reset();
        DataSetAssert.Equivalent(value, await client.EchoAsync(value));
        Assert.True(CountingProxy.Contains(endpoint.Relay.Sent, SurrogatePayload.PayloadNamespace), $"{transport}: the request should be the payload");
        Assert.True(CountingProxy.Contains(endpoint.Relay.Received, SurrogatePayload.PayloadNamespace), $"{transport}: the reply should be the payload");
    }

    private static DataSet Rows(int count)
    {
        var ds = new DataSet("Rows");
        DataTable table = ds.Tables.Add("T");
        table.Columns.Add("Id", typeof(int));
        table.Columns.Add("Name", typeof(string));
        var random = new Random(5);
        for (int i = 0; i < count; i++)
        {
            table.Rows.Add(i, SampleData.Text(random, 64));
        }

        ds.AcceptChanges();
        return ds;
    }
}
