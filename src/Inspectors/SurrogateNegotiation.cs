using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel;

/// <summary>
/// How two ends agree on the format. Each end with the attribute puts an <c>Accept</c> header (our namespace,
/// mustUnderstand=false, so peers without the attribute ignore it) on what it sends, meaning "I read the codec
/// payload". A service answers in the payload only a request that carried the header; a client sends payload
/// requests only after a reply of that endpoint carried it. Everything else is plain DataSet XML.
/// </summary>
public static class SurrogateNegotiation
{
    /// <summary>Namespace of the negotiation header.</summary>
    public const string Namespace = "urn:datasetsurrogate:wcf";

    /// <summary>Local name of the negotiation header.</summary>
    public const string HeaderName = "Accept";

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
}

/// <summary>
/// Client half: announces on every request, and remembers per endpoint (one instance per client runtime, so per
/// channel factory) whether that service announced back. Only then are requests written as the payload.
/// </summary>
internal sealed class SurrogateClientInspector : IClientMessageInspector
{
    private volatile bool _serviceAccepts;

    /// <summary>Whether the service of this endpoint has said it reads the payload.</summary>
    public bool ServiceAccepts => _serviceAccepts;

    public object? BeforeSendRequest(ref Message request, IClientChannel channel)
    {
        if (!SurrogateNegotiation.CanCarryHeaders(request))
        {
            return null;
        }

        SurrogateNegotiation.Announce(request);
        if (_serviceAccepts && !request.IsEmpty)
        {
            request = new SurrogateWriteMessage(request);
        }

        return null;
    }

    public void AfterReceiveReply(ref Message reply, object? correlationState)
    {
        // Every reply re-decides, so a service rolled back to a version without the attribute is noticed.
        if (reply is not null)
        {
            _serviceAccepts = SurrogateNegotiation.Announced(reply);
        }
    }
}

/// <summary>Service half: answers in the payload only the requests that announced, and announces back.</summary>
internal sealed class SurrogateDispatchInspector : IDispatchMessageInspector
{
    private static readonly object Announced = new();

    public object? AfterReceiveRequest(ref Message request, IClientChannel channel, InstanceContext instanceContext) =>
        request is not null && SurrogateNegotiation.Announced(request) ? Announced : null;

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
