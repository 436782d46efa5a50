using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Dispatcher;
using System.Xml;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The inspectors with the client's own request formatter and the bindings' own encoders, with no transport: bodies
/// are written lazily by the encoder, and the payload appears exactly when the other end has announced.
/// </summary>
public sealed class InspectorPipelineTests
{
    public static TheoryData<string> Encoders => new() { "binary", "text" };

    [Theory]
    [MemberData(nameof(Encoders))]
    public void Request_is_plain_until_a_reply_announces_then_payload(string encoding)
    {
        MessageEncodingBindingElement element = encoding == "binary"
            ? new BinaryMessageEncodingBindingElement()
            : new TextMessageEncodingBindingElement(MessageVersion.Soap11, System.Text.Encoding.UTF8);
        MessageEncoder encoder = element.CreateMessageEncoderFactory().Encoder;
        using var factory = new ChannelFactory<IShop>(new BasicHttpBinding(), new EndpointAddress("http://127.0.0.1:9/shop"));
        var capture = new RuntimeCapture();
        factory.Endpoint.EndpointBehaviors.Add(capture);
        factory.Open();
        ClientRuntime runtime = capture.Runtime!;
        IClientMessageInspector inspector = runtime.ClientMessageInspectors.OfType<SurrogateClientInspector>().Single();
        IClientMessageFormatter formatter = runtime.ClientOperations.Single(o => o.Name == "Echo").Formatter;
        DataSet value = SampleData.Orders();

        (byte[] first, object? state) = Send(formatter, inspector, encoder, value);
        Assert.False(SerializerLevelTests.HasMarker(first));
        Assert.True(CountingProxy.Contains(first, SurrogateNegotiation.Namespace), "a request of an operation with the attribute announces");

        Message reply = Message.CreateMessage(encoder.MessageVersion, "reply");
        SurrogateHeaders.Announce(reply, PayloadReads.Everything);
        inspector.AfterReceiveReply(ref reply, state);

        (byte[] second, state) = Send(formatter, inspector, encoder, value);
        Assert.True(SerializerLevelTests.HasMarker(second));
        DataSet read = ReadRequest(encoder, second);
        Assert.Equal(SampleData.Describe(value), SampleData.Describe(read));

        // A reply without the announcement to a payload request: the service behind the endpoint does not read it.
        Message plainReply = Message.CreateMessage(encoder.MessageVersion, "reply");
        inspector.AfterReceiveReply(ref plainReply, state);
        Assert.False(SerializerLevelTests.HasMarker(Send(formatter, inspector, encoder, value).Wire));
        factory.Abort();
    }

    [Theory]
    [MemberData(nameof(Encoders))]
    public void Service_answers_in_the_payload_only_requests_that_announced(string encoding)
    {
        MessageEncoder encoder = (encoding == "binary"
            ? (MessageEncodingBindingElement)new BinaryMessageEncodingBindingElement()
            : new TextMessageEncodingBindingElement()).CreateMessageEncoderFactory().Encoder;
        var provider = new DataSetSurrogateProvider("Echo", SurrogateSide.Service);
        var operations = new OperationTable<DataSetSurrogateProvider>([new SurrogateOperation("request", IsOneWay: false)]);
        operations.Cover("request", provider);
        var inspector = new SurrogateDispatchInspector(operations);
        foreach (bool announced in new[] { false, true })
        {
            Message request = Message.CreateMessage(encoder.MessageVersion, "request");
            if (announced)
            {
                SurrogateHeaders.AskForPayload(request);
            }

            object? state = inspector.AfterReceiveRequest(ref request, null!, null!);
            var serializer = new DataContractSerializer(typeof(DataSet), "value", Shop.Namespace);
            serializer.SetSerializationSurrogateProvider(provider);
            Message reply = Message.CreateMessage(encoder.MessageVersion, "reply", SampleData.Orders(), serializer);
            inspector.BeforeSendReply(ref reply, state);
            using var stream = new MemoryStream();
            encoder.WriteMessage(reply, stream);
            Assert.Equal(announced, SerializerLevelTests.HasMarker(stream.ToArray()));
            PayloadReads said = SurrogateHeaders.ReadAnnouncement(encoder.ReadMessage(new MemoryStream(stream.ToArray()), int.MaxValue));
            Assert.Equal(announced, said.IsEverything);
        }
    }

    private static (byte[] Wire, object? State) Send(IClientMessageFormatter formatter, IClientMessageInspector inspector, MessageEncoder encoder, DataSet value)
    {
        Message request = formatter.SerializeRequest(encoder.MessageVersion, [value]);
        object? state = inspector.BeforeSendRequest(ref request, null!);
        using var stream = new MemoryStream();
        encoder.WriteMessage(request, stream);
        return (stream.ToArray(), state);
    }

    private static DataSet ReadRequest(MessageEncoder encoder, byte[] bytes)
    {
        Message message = encoder.ReadMessage(new MemoryStream(bytes), int.MaxValue);
        using XmlDictionaryReader reader = message.GetReaderAtBodyContents();
        reader.ReadStartElement("Echo", Shop.Namespace);
        var serializer = new DataContractSerializer(typeof(DataSet), "value", Shop.Namespace);
        serializer.SetSerializationSurrogateProvider(new DataSetSurrogateProvider("Echo", SurrogateSide.Service));
        return (DataSet)serializer.ReadObject(reader, verifyObjectName: true)!;
    }
}
