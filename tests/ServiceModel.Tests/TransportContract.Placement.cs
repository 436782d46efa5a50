using System.Data;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The suite's tests of attribute placement: every combination of contract-level, operation-level and absent on
/// each end, per operation (with and without the attribute, two-way and one-way), checked on both ends: the rows the
/// service received, the rows that came back, and which format crossed the relay.
/// </summary>
public abstract partial class TransportContract
{
    public static TheoryData<Placement, Placement> Placements
    {
        get
        {
            var data = new TheoryData<Placement, Placement>();
            foreach (Placement client in Enum.GetValues<Placement>())
            {
                foreach (Placement service in Enum.GetValues<Placement>())
                {
                    data.Add(client, service);
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(Placements))]
    public async Task Every_operation_delivers_every_row_in_a_format_both_ends_read(Placement client, Placement service)
    {
        Type contract = PlacementCalls.ContractFor(client);
        object channel = Host.OpenChannel(contract, ShopHost.PlacementPath(service));
        DataSet value = SampleData.Orders(rows: 21);
        await PlacementCalls.CallAsync(contract, channel, "Echo", NewKey(), value); // the client learns what the service reads

        foreach (string operation in PlacementContract.Operations)
        {
            bool both = PlacementContract.Reads(client, operation) && PlacementContract.Reads(service, operation);
            bool oneWay = PlacementContract.IsOneWay(operation);
            string key = NewKey();
            Host.Proxy.Reset();
            DataSet? echoed = await PlacementCalls.CallAsync(contract, channel, operation, key, value);
            Same(value, await Host.Placements.ReceivedAsync(key));
            if (!oneWay)
            {
                Same(value, echoed!);
            }

            // One-way requests use the payload only on a session, where the client learned from the service that gets them.
            AssertFormat(request: both && (!oneWay || Host.HasSession), reply: both && !oneWay, $"client {client}, service {service}, {operation}");
        }
    }

    [Fact]
    public async Task Concurrent_calls_of_every_placement_and_operation_deliver_every_row()
    {
        DataSet value = SampleData.Orders(rows: 9);
        var calls = new List<Task>();
        foreach (Placement service in Enum.GetValues<Placement>())
        {
            foreach (Placement client in Enum.GetValues<Placement>())
            {
                Type contract = PlacementCalls.ContractFor(client);
                object channel = Host.OpenChannel(contract, ShopHost.PlacementPath(service));
                await PlacementCalls.CallAsync(contract, channel, "Echo", NewKey(), value);
                for (int round = 0; round < 2; round++)
                {
                    foreach (string operation in PlacementContract.Operations)
                    {
                        calls.Add(CallAndCheckAsync(contract, channel, operation, value));
                    }
                }
            }
        }

        await Task.WhenAll(calls);
    }

    [Fact]
    public async Task A_payload_request_for_an_operation_without_the_attribute_is_refused_before_it_runs()
    {
        IPlacementRaw raw = Open<IPlacementRaw>(ShopHost.PlacementPath(Placement.Operation));
        DataSet value = SampleData.Orders(rows: 5);

        string refusedKey = NewKey();
        Message refused = await raw.SendAsync(PayloadRequest("EchoOther", refusedKey, value));
        Assert.True(refused.IsFault, $"{Host.TransportName}: a payload request for EchoOther must be refused");
        string reason = MessageFault.CreateFault(refused, 64 * 1024).Reason.GetMatchingTranslation(System.Globalization.CultureInfo.GetCultureInfo("en-US")).Text;
        Assert.Contains(SurrogateNegotiation.PayloadHeaderName, reason, StringComparison.Ordinal);
        Assert.False(Host.Placements.HasReceived(refusedKey), "the operation must not run");

        string acceptedKey = NewKey();
        Message accepted = await raw.SendAsync(PayloadRequest("Echo", acceptedKey, value));
        Assert.False(accepted.IsFault, $"{Host.TransportName}: Echo reads the payload");
        Same(value, await Host.Placements.ReceivedAsync(acceptedKey));
    }

    private async Task CallAndCheckAsync(Type contract, object channel, string operation, DataSet value)
    {
        string key = NewKey();
        DataSet? echoed = await PlacementCalls.CallAsync(contract, channel, operation, key, value);
        Same(value, await Host.Placements.ReceivedAsync(key));
        if (!PlacementContract.IsOneWay(operation))
        {
            Same(value, echoed!);
        }
    }

    private static string NewKey() => Guid.NewGuid().ToString("N");

    /// <summary>A request whose DataSet is the payload, marked as such: what a client that believes the service reads it sends.</summary>
    private Message PayloadRequest(string operation, string key, DataSet value)
    {
        MessageVersion version = Host.CreateBinding(large: false).MessageVersion;
        Message request = Message.CreateMessage(version, $"{Shop.Namespace}/{PlacementContract.Name}/{operation}", new PayloadBody(operation, key, value));
        request.Headers.Add(MessageHeader.CreateHeader(SurrogateNegotiation.PayloadHeaderName, SurrogateNegotiation.Namespace, SurrogateNegotiation.Version, mustUnderstand: true));
        return request;
    }

    private sealed class PayloadBody(string operation, string key, DataSet value) : BodyWriter(isBuffered: true)
    {
        private readonly byte[] payload = DataSetSerializer.Serialize(value);

        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement(operation, Shop.Namespace);
            writer.WriteElementString("key", Shop.Namespace, key);
            writer.WriteStartElement("value", Shop.Namespace);
            writer.WriteAttributeString("dss", SurrogatePayload.PayloadAttribute, SurrogatePayload.PayloadNamespace, "1");
            writer.WriteBase64(payload, 0, payload.Length);
            writer.WriteEndElement();
            writer.WriteEndElement();
        }
    }
}

/// <summary>Sends hand-made messages to the placement endpoints.</summary>
[ServiceContract(Name = PlacementContract.Name, Namespace = Shop.Namespace)]
public interface IPlacementRaw
{
    [OperationContract(Action = "*", ReplyAction = "*")]
    Task<Message> SendAsync(Message request);
}
