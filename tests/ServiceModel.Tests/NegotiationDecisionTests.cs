using System.ServiceModel.Channels;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The negotiation decisions on their own (no messages, no transport): what each end announces, when a request is
/// the payload, what a service understands, and the headers that carry what a service reads.
/// </summary>
public sealed class NegotiationDecisionTests
{
    private static readonly SurrogateOperation Echo = new("urn:a/Echo", IsOneWay: false);
    private static readonly SurrogateOperation Other = new("urn:a/Other", IsOneWay: false);
    private static readonly SurrogateOperation Post = new("urn:a/Post", IsOneWay: true);

    [Fact]
    public void A_client_announces_and_sends_the_payload_only_for_operations_it_has_the_attribute_on()
    {
        var client = new ClientNegotiator();
        Assert.Equal(default, client.Plan(Other, readsPayload: false, session: null, hasBody: true));

        RequestPlan first = client.Plan(Echo, readsPayload: true, session: null, hasBody: true);
        Assert.True(first.Announce);
        Assert.False(first.Payload);
        client.Learn(first.Correlation, PayloadReads.Everything);
        Assert.True(client.Plan(Echo, readsPayload: true, session: null, hasBody: true).Payload);
        Assert.False(client.Plan(Echo, readsPayload: true, session: null, hasBody: false).Payload);
        Assert.False(client.Plan(Other, readsPayload: false, session: null, hasBody: true).Payload);
    }

    [Fact]
    public void A_client_sends_the_payload_only_for_the_operations_the_service_listed()
    {
        var client = new ClientNegotiator();
        client.Learn(client.Plan(Echo, true, null, true).Correlation, PayloadReads.Of([Echo.Action]));
        Assert.True(client.Plan(Echo, true, null, true).Payload);
        Assert.False(client.Plan(Other, true, null, true).Payload);
    }

    [Fact]
    public void A_one_way_request_is_the_payload_only_on_a_session_that_learned_from_another_operation()
    {
        var client = new ClientNegotiator();
        object session = new();
        client.Learn(client.Plan(Echo, true, null, true).Correlation, PayloadReads.Everything);
        Assert.False(client.Plan(Post, true, session: null, true).Payload);
        Assert.False(client.Plan(Post, true, session, true).Payload); // this session has not heard from its service yet

        client.Learn(client.Plan(Echo, true, session, true).Correlation, PayloadReads.Of([Echo.Action, Post.Action]));
        RequestPlan post = client.Plan(Post, true, session, true);
        Assert.True(post.Payload);
        Assert.False(post.Announce, "a one-way request has no reply to announce for");
        Assert.False(client.Plan(Post, true, new object(), true).Payload);
    }

    [Fact]
    public void A_payload_request_answered_without_its_operation_keeps_the_endpoint_plain_for_the_back_off()
    {
        var client = new ClientNegotiator();
        client.Learn(client.Plan(Echo, true, null, true).Correlation, PayloadReads.Everything);
        RequestPlan payload = client.Plan(Echo, true, null, true);
        Assert.True(payload.Payload);

        client.Learn(payload.Correlation, PayloadReads.Of([Other.Action])); // a service that does not read Echo answered
        Assert.False(client.Plan(Other, true, null, true).Payload);
        client.Learn(client.Plan(Other, true, null, true).Correlation, PayloadReads.Everything);
        Assert.False(client.Plan(Echo, true, null, true).Payload);
    }

    [Fact]
    public void A_service_understands_the_payload_marker_only_for_operations_with_the_attribute()
    {
        OperationTable<string> operations = Table(covered: Echo);
        var service = new ServiceNegotiator<string>(operations);

        RequestDecision<string> echo = service.OnRequest(Echo.Action, announced: true);
        Assert.True(echo.UnderstandPayloadMarker);
        Assert.True(echo.AnswerInPayload);
        Assert.Equal([Echo.Action], echo.Announcement!.Actions);

        RequestDecision<string> other = service.OnRequest(Other.Action, announced: true);
        Assert.False(other.UnderstandPayloadMarker);
        Assert.False(other.AnswerInPayload);
        Assert.NotNull(other.Announcement);

        RequestDecision<string> unannounced = service.OnRequest(Echo.Action, announced: false);
        Assert.True(unannounced.UnderstandPayloadMarker);
        Assert.False(unannounced.AnswerInPayload);
        Assert.Null(unannounced.Announcement);
        Assert.False(service.OnRequest("urn:a/Unknown", announced: true).UnderstandPayloadMarker);
    }

    [Fact]
    public void An_end_with_every_operation_covered_announces_everything()
    {
        OperationTable<string> operations = Table(covered: Echo);
        Assert.False(operations.Reads.IsEverything);
        operations.Cover(Other.Action, "other");
        operations.Cover(Post.Action, "post");
        Assert.True(operations.Reads.IsEverything);
    }

    [Fact]
    public void The_catch_all_operation_reads_actions_no_other_operation_has()
    {
        var operations = new OperationTable<string>([Echo, new SurrogateOperation("*", IsOneWay: false)]);
        operations.Cover("*", "any");
        Assert.Equal("any", operations.ReaderFor("urn:a/Unknown"));
        Assert.Null(operations.ReaderFor(Echo.Action));
    }

    [Fact]
    public void Replies_carry_what_the_service_reads_and_version_one_means_every_operation()
    {
        Assert.True(RoundTrip(PayloadReads.Everything).IsEverything);
        Assert.Equal([Echo.Action, Post.Action], RoundTrip(PayloadReads.Of([Post.Action, Echo.Action])).Actions.Order());
        Assert.Equal(["a b%20c", "d"], RoundTrip(PayloadReads.Of(["d", "a b%20c"])).Actions.Order(StringComparer.Ordinal)); // actions are any string
        Assert.Same(PayloadReads.Nothing, RoundTrip(PayloadReads.Nothing));

        // A first-version service writes <Accept>1</Accept>; a list this end cannot read counts as nothing.
        Message legacy = Message.CreateMessage(MessageVersion.Soap11, "reply");
        legacy.Headers.Add(MessageHeader.CreateHeader(SurrogateNegotiation.HeaderName, SurrogateNegotiation.Namespace, "1"));
        Assert.True(SurrogateHeaders.ReadAnnouncement(legacy).IsEverything);
        Message garbled = Message.CreateMessage(MessageVersion.Soap11, "reply");
        garbled.Headers.Add(MessageHeader.CreateHeader(SurrogateNegotiation.ActionsHeaderName, SurrogateNegotiation.Namespace, new[] { "not", "a string" }));
        Assert.Same(PayloadReads.Nothing, SurrogateHeaders.ReadAnnouncement(garbled));
    }

    private static PayloadReads RoundTrip(PayloadReads reads)
    {
        MessageEncoder encoder = new TextMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
        Message reply = Message.CreateMessage(encoder.MessageVersion, "reply");
        SurrogateHeaders.Announce(reply, reads);
        using var stream = new MemoryStream();
        encoder.WriteMessage(reply, stream);
        return SurrogateHeaders.ReadAnnouncement(encoder.ReadMessage(new MemoryStream(stream.ToArray()), int.MaxValue));
    }

    private static OperationTable<string> Table(SurrogateOperation covered)
    {
        var operations = new OperationTable<string>([Echo, Other, Post]);
        operations.Cover(covered.Action, "reader");
        return operations;
    }
}
