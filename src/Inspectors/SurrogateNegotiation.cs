using System.Runtime.CompilerServices;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel;

/// <summary>
/// How two ends agree on the format. Each end with the attribute puts an <c>Accept</c> header (our namespace,
/// mustUnderstand=false, so peers without the attribute ignore it) on what it sends, meaning "I read the codec
/// payload". A service answers in the payload only a request that carried the header; a client sends payload
/// requests only after a reply of that service carried it, and marks them with a <c>Payload</c> header that is
/// mustUnderstand=true, so a service without the attribute refuses such a request before invoking the operation
/// instead of reading its DataSets as empty. Everything else is plain DataSet XML.
/// </summary>
public static class SurrogateNegotiation
{
    /// <summary>Namespace of the negotiation headers.</summary>
    public const string Namespace = "urn:datasetsurrogate:wcf";

    /// <summary>Local name of the header that says "I read the payload".</summary>
    public const string HeaderName = "Accept";

    /// <summary>Local name of the mustUnderstand header that says "this request's DataSets are the payload".</summary>
    public const string PayloadHeaderName = "Payload";

    /// <summary>The payload version this library reads and writes.</summary>
    public const string Version = "1";

    internal static bool CanCarryHeaders(Message message) => message.Version.Envelope != EnvelopeVersion.None;

    internal static bool Announced(Message message) =>
        CanCarryHeaders(message) && message.Headers.FindHeader(HeaderName, Namespace) >= 0;

    internal static void Announce(Message message)
    {
        if (CanCarryHeaders(message) && message.Headers.FindHeader(HeaderName, Namespace) < 0)
        {
            message.Headers.Add(MessageHeader.CreateHeader(HeaderName, Namespace, Version, mustUnderstand: false));
        }
    }

    internal static void MarkPayload(Message message)
    {
        if (message.Headers.FindHeader(PayloadHeaderName, Namespace) < 0)
        {
            message.Headers.Add(MessageHeader.CreateHeader(PayloadHeaderName, Namespace, Version, mustUnderstand: true));
        }
    }

    /// <summary>Tells the dispatcher that this end understood the mandatory payload marker.</summary>
    internal static void UnderstandPayloadMarker(Message message)
    {
        int index = message.Headers.FindHeader(PayloadHeaderName, Namespace);
        if (index >= 0)
        {
            message.Headers.UnderstoodHeaders.Add(message.Headers[index]);
        }
    }
}

/// <summary>
/// Client half: announces on every request and decides per request whether to write it as the payload. A channel
/// with a session (net.tcp buffered) talks to one service for its life, so it learns from that service's own replies.
/// A channel without one (HTTP, streamed net.tcp) may reach a different service per call, so it learns per endpoint
/// (one instance per client runtime, i.e. per channel factory); when a payload request reaches a service without the
/// attribute (a fleet mid-upgrade behind one address: that call fails, without running the operation), requests of
/// the endpoint stay plain for <see cref="MixedFleetBackOff"/> while replies keep using the payload.
/// </summary>
internal sealed class SurrogateClientInspector : IClientMessageInspector
{
    /// <summary>How long an endpoint's requests stay plain after a payload request met a service without the attribute.</summary>
    internal static readonly TimeSpan MixedFleetBackOff = TimeSpan.FromMinutes(5);

    private static readonly object PlainSent = new();
    private static readonly object PayloadSent = new();

    private readonly ConditionalWeakTable<IClientChannel, SessionState> _sessions = new();
    private volatile bool _endpointAccepts;
    private long _plainUntil;

    public object? BeforeSendRequest(ref Message request, IClientChannel channel)
    {
        if (!SurrogateNegotiation.CanCarryHeaders(request))
        {
            return null;
        }

        SurrogateNegotiation.Announce(request);
        SessionState? session = channel?.SessionId is null ? null : _sessions.GetValue(channel, static _ => new SessionState());
        bool accepts = session?.ServiceAccepts
            ?? (_endpointAccepts && Environment.TickCount64 >= Interlocked.Read(ref _plainUntil));
        bool payload = accepts && !request.IsEmpty;
        if (payload)
        {
            SurrogateNegotiation.MarkPayload(request);
            request = new SurrogateWriteMessage(request);
        }

        return session ?? (payload ? PayloadSent : PlainSent);
    }

    public void AfterReceiveReply(ref Message reply, object? correlationState)
    {
        if (reply is null)
        {
            return;
        }

        // Every reply re-decides, so a service rolled back to a version without the attribute is noticed.
        bool announced = SurrogateNegotiation.Announced(reply);
        if (correlationState is SessionState session)
        {
            session.ServiceAccepts = announced;
            return;
        }

        if (!announced && correlationState == PayloadSent)
        {
            Interlocked.Exchange(ref _plainUntil, Environment.TickCount64 + (long)MixedFleetBackOff.TotalMilliseconds);
        }

        _endpointAccepts = announced;
    }

    private sealed class SessionState
    {
        public volatile bool ServiceAccepts;
    }
}

/// <summary>Service half: answers in the payload only the requests that announced, and announces back.</summary>
internal sealed class SurrogateDispatchInspector : IDispatchMessageInspector
{
    private static readonly object Announced = new();

    public object? AfterReceiveRequest(ref Message request, IClientChannel channel, InstanceContext instanceContext)
    {
        if (request is null)
        {
            return null;
        }

        SurrogateNegotiation.UnderstandPayloadMarker(request);
        return SurrogateNegotiation.Announced(request) ? Announced : null;
    }

    public void BeforeSendReply(ref Message reply, object? correlationState)
    {
        if (reply is null || correlationState != Announced)
        {
            return;
        }

        SurrogateNegotiation.Announce(reply);
        if (!reply.IsEmpty && !reply.IsFault)
        {
            reply = new SurrogateWriteMessage(reply);
        }
    }
}
