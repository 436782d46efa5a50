using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Dispatcher;
using Surrogate.ServiceModel;

namespace Surrogate.CoreWCF;

/// <summary>
/// The service half on CoreWCF messages (one per endpoint's dispatch runtime): reads and writes the negotiation headers
/// and wraps messages, as System.ServiceModel's dispatch inspector does; <see cref="ServiceNegotiator{TReader}"/>
/// decides. A payload request for an operation without the attribute is refused here with the MustUnderstand fault,
/// before its body is read: CoreWCF reads the parameters before it checks mandatory headers, and DataSet's own reader
/// would otherwise meet the payload element first (an internal-error fault instead of one naming the header).
/// </summary>
internal sealed class CoreWcfDispatchInspector(OperationTable<DataSetSurrogateProvider> operations) : IDispatchMessageInspector
{
    private readonly ServiceNegotiator<DataSetSurrogateProvider> _negotiator = new(operations);

    public object? AfterReceiveRequest(ref Message request, IClientChannel channel, InstanceContext instanceContext)
    {
        if (request is null)
        {
            return null;
        }

        RequestDecision<DataSetSurrogateProvider> decision = _negotiator.OnRequest(request.Headers.Action, CoreWcfHeaders.AsksForPayload(request));
        if (decision.UnderstandPayloadMarker)
        {
            CoreWcfHeaders.UnderstandPayloadMarker(request);
        }
        else if (CoreWcfHeaders.IsMarkedPayload(request))
        {
            throw CoreWcfHeaders.PayloadNotUnderstood(request);
        }

        if (decision.Reader is { } reader)
        {
            request = new CoreWcfReadMessage(request, reader);
        }

        return decision.Announcement is null ? null : decision;
    }

    public void BeforeSendReply(ref Message reply, object? correlationState)
    {
        if (reply is null || correlationState is not RequestDecision<DataSetSurrogateProvider> decision)
        {
            return;
        }

        CoreWcfHeaders.Announce(reply, decision.Announcement!);
        if (decision.AnswerInPayload && !reply.IsEmpty && !reply.IsFault)
        {
            reply = new CoreWcfWriteMessage(reply);
        }
    }
}

/// <summary>The negotiation headers (<see cref="SurrogateNegotiation"/>) on CoreWCF messages, service side.</summary>
internal static class CoreWcfHeaders
{
    public static bool AsksForPayload(Message request) =>
        CanCarryHeaders(request) && request.Headers.FindHeader(SurrogateNegotiation.HeaderName, SurrogateNegotiation.Namespace) >= 0;

    public static void Announce(Message reply, PayloadReads reads)
    {
        if (reads.IsEverything)
        {
            Add(reply, SurrogateNegotiation.HeaderName, SurrogateNegotiation.Version);
        }
        else if (reads.Actions.Count > 0)
        {
            Add(reply, SurrogateNegotiation.ActionsHeaderName, PayloadReads.FormatActions(reads.Actions));
        }
    }

    public static bool IsMarkedPayload(Message request) =>
        CanCarryHeaders(request) && request.Headers.FindHeader(SurrogateNegotiation.PayloadHeaderName, SurrogateNegotiation.Namespace) >= 0;

    /// <summary>The MustUnderstand fault WCF sends for a mandatory header it does not understand, for the Payload marker.</summary>
    public static FaultException PayloadNotUnderstood(Message request)
    {
        string envelope = request.Version.Envelope == EnvelopeVersion.Soap11
            ? "http://schemas.xmlsoap.org/soap/envelope/"
            : "http://www.w3.org/2003/05/soap-envelope";
        return new FaultException(
            new FaultReason($"The header '{SurrogateNegotiation.PayloadHeaderName}' from the namespace '{SurrogateNegotiation.Namespace}' was not understood by the recipient of this message, causing the message to not be processed."),
            new FaultCode("MustUnderstand", envelope));
    }

    /// <summary>Tells the dispatcher that this end understood the mandatory payload marker.</summary>
    public static void UnderstandPayloadMarker(Message request)
    {
        int index = request.Headers.FindHeader(SurrogateNegotiation.PayloadHeaderName, SurrogateNegotiation.Namespace);
        if (index >= 0)
        {
            request.Headers.UnderstoodHeaders.Add(request.Headers[index]);
        }
    }

    private static bool CanCarryHeaders(Message message) => message.Version.Envelope != EnvelopeVersion.None;

    private static void Add(Message message, string name, string value)
    {
        if (CanCarryHeaders(message) && message.Headers.FindHeader(name, SurrogateNegotiation.Namespace) < 0)
        {
            message.Headers.Add(MessageHeader.CreateHeader(name, SurrogateNegotiation.Namespace, value, mustUnderstand: false));
        }
    }
}
