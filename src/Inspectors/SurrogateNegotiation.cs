using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.ServiceModel;

/// <summary>
/// The SOAP headers by which two ends agree on the format, per operation (docs/wcf.md, "Rolling upgrades"). A
/// request carries <see cref="HeaderName"/> when its sender reads the payload for that operation, so the reply may be
/// the payload. A reply to such a request says what the service reads: <see cref="HeaderName"/> with value
/// <see cref="Version"/> for every operation of its endpoint, or <see cref="ActionsHeaderName"/> listing the request
/// actions of the operations it reads the payload for. A request whose DataSets are the payload is marked with
/// <see cref="PayloadHeaderName"/>, mustUnderstand=true, which only an operation with the attribute understands: any
/// other refuses the request (a MustUnderstand fault) before the operation runs, instead of reading an empty DataSet.
/// The other headers are mustUnderstand=false, so peers without the attribute ignore them.
/// </summary>
internal static class SurrogateNegotiation
{
    /// <summary>Namespace of the negotiation headers.</summary>
    public const string Namespace = "urn:datasetsurrogate:wcf";

    /// <summary>
    /// Local name of the header that says "I read the payload": on a request, for the reply to it; on a reply, for
    /// every operation of the service's endpoint (its value is <see cref="Version"/>).
    /// </summary>
    public const string HeaderName = "Accept";

    /// <summary>
    /// Local name of the reply header of a service that reads the payload for some operations only: the request actions
    /// of those operations, separated by spaces (a space or '%' inside an action is written as %20 or %25). Peers of the
    /// first version ignore it, and so send plain requests.
    /// </summary>
    public const string ActionsHeaderName = "AcceptActions";

    /// <summary>Local name of the mustUnderstand header that says "this request's DataSets are the payload".</summary>
    public const string PayloadHeaderName = "Payload";

    /// <summary>The payload version this library reads and writes.</summary>
    public const string Version = "1";
}

/// <summary>The negotiation headers on System.ServiceModel messages; the decisions are made elsewhere.</summary>
internal static class SurrogateHeaders
{
    public static bool CanCarryHeaders(Message message) => message.Version.Envelope != EnvelopeVersion.None;

    /// <summary>Whether a request asks for a payload reply.</summary>
    public static bool AsksForPayload(Message request) =>
        CanCarryHeaders(request) && request.Headers.FindHeader(SurrogateNegotiation.HeaderName, SurrogateNegotiation.Namespace) >= 0;

    public static void AskForPayload(Message request) => Add(request, SurrogateNegotiation.HeaderName, SurrogateNegotiation.Version, mustUnderstand: false);

    /// <summary>What a reply says its service reads; nothing when it says nothing or cannot be understood.</summary>
    public static PayloadReads ReadAnnouncement(Message reply)
    {
        if (!CanCarryHeaders(reply))
        {
            return PayloadReads.Nothing;
        }

        if (reply.Headers.FindHeader(SurrogateNegotiation.HeaderName, SurrogateNegotiation.Namespace) >= 0)
        {
            return PayloadReads.Everything;
        }

        int index = reply.Headers.FindHeader(SurrogateNegotiation.ActionsHeaderName, SurrogateNegotiation.Namespace);
        try
        {
            return index < 0 ? PayloadReads.Nothing : PayloadReads.Of(PayloadReads.ParseActions(reply.Headers.GetHeader<string>(index)));
        }
        catch (Exception e) when (e is SerializationException or XmlException or CommunicationException)
        {
            return PayloadReads.Nothing; // a list this end cannot read: requests stay plain, which every service reads
        }
    }

    public static void Announce(Message reply, PayloadReads reads)
    {
        if (reads.IsEverything)
        {
            Add(reply, SurrogateNegotiation.HeaderName, SurrogateNegotiation.Version, mustUnderstand: false);
        }
        else if (reads.Actions.Count > 0)
        {
            Add(reply, SurrogateNegotiation.ActionsHeaderName, PayloadReads.FormatActions(reads.Actions), mustUnderstand: false);
        }
    }

    public static void MarkPayload(Message request) => Add(request, SurrogateNegotiation.PayloadHeaderName, SurrogateNegotiation.Version, mustUnderstand: true);

    /// <summary>Tells the dispatcher that this end understood the mandatory payload marker.</summary>
    public static void UnderstandPayloadMarker(Message request)
    {
        int index = request.Headers.FindHeader(SurrogateNegotiation.PayloadHeaderName, SurrogateNegotiation.Namespace);
        if (index >= 0)
        {
            request.Headers.UnderstoodHeaders.Add(request.Headers[index]);
        }
    }

    private static void Add(Message message, string name, object value, bool mustUnderstand)
    {
        if (CanCarryHeaders(message) && message.Headers.FindHeader(name, SurrogateNegotiation.Namespace) < 0)
        {
            message.Headers.Add(MessageHeader.CreateHeader(name, SurrogateNegotiation.Namespace, value, mustUnderstand));
        }
    }
}
