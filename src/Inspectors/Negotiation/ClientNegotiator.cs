using System.Runtime.CompilerServices;

namespace Surrogate.ServiceModel;

/// <summary>How a client writes one request: whether it announces and whether its DataSets travel as the payload.</summary>
/// <param name="Announce">Put the Accept header on it: the reply may be the payload (this end reads it for the operation); never on a one-way request.</param>
/// <param name="Payload">Write its DataSets as the payload and mark it with the mandatory Payload header.</param>
/// <param name="Correlation">What <see cref="ClientNegotiator.Learn"/> needs when the reply arrives (null: nothing to learn).</param>
internal readonly record struct RequestPlan(bool Announce, bool Payload, object? Correlation);

/// <summary>
/// The client's decisions, per operation (one instance per client runtime, i.e. per channel factory). A request
/// announces only for an operation this end reads the payload for, and is written as the payload only when the
/// service has said it reads that operation's payload too. What the service reads is learned from its replies to
/// announced requests: a channel with a session (net.tcp buffered) learns from its own service; a channel without
/// one (HTTP, streamed net.tcp) may reach a different service per call, so it learns per endpoint, and when a
/// payload request meets a service that does not read it (a fleet mid-upgrade behind one address: that call fails
/// without running the operation), the endpoint's requests stay plain for <see cref="MixedFleetBackOff"/>.
/// One-way requests get no reply and so no refusal: they use the payload only on a session, where what was learned
/// is about the very service that receives them.
/// </summary>
internal sealed class ClientNegotiator
{
    /// <summary>How long an endpoint's requests stay plain after a payload request met a service that does not read it.</summary>
    public static readonly TimeSpan MixedFleetBackOff = TimeSpan.FromMinutes(5);

    private readonly ConditionalWeakTable<object, SessionState> _sessions = new();
    private volatile PayloadReads _endpointReads = PayloadReads.Nothing;
    private long _plainUntil;

    /// <summary>Plans a request of <paramref name="operation"/>.</summary>
    /// <param name="operation">The operation, or null when the action belongs to none of the contract.</param>
    /// <param name="readsPayload">Whether this end has the attribute on the operation.</param>
    /// <param name="session">The channel when it has a session, else null.</param>
    /// <param name="hasBody">Whether the request has a body (an empty one has no DataSet to write).</param>
    public RequestPlan Plan(SurrogateOperation? operation, bool readsPayload, object? session, bool hasBody)
    {
        if (operation is null || !readsPayload)
        {
            return default;
        }

        SessionState? state = session is null ? null : _sessions.GetValue(session, static _ => new SessionState());
        PayloadReads reads = state?.ServiceReads
            ?? (Environment.TickCount64 >= Interlocked.Read(ref _plainUntil) ? _endpointReads : PayloadReads.Nothing);
        bool payload = hasBody && reads.Covers(operation.Action) && (!operation.IsOneWay || state is not null);
        // A one-way request gets no reply, so there is nothing to announce for and nothing to learn from.
        return operation.IsOneWay
            ? new RequestPlan(Announce: false, payload, Correlation: null)
            : new RequestPlan(Announce: true, payload, new Pending(state, payload ? operation.Action : null));
    }

    /// <summary>Takes in what the service said in its reply to a planned request (every such reply re-decides).</summary>
    public void Learn(object? correlation, PayloadReads serviceReads)
    {
        if (correlation is not Pending pending)
        {
            return;
        }

        if (pending.Session is { } session)
        {
            session.ServiceReads = serviceReads;
            return;
        }

        if (pending.PayloadAction is not null && !serviceReads.Covers(pending.PayloadAction))
        {
            // The service that got the payload does not read it: it refused the request, which did not run.
            Interlocked.Exchange(ref _plainUntil, Environment.TickCount64 + (long)MixedFleetBackOff.TotalMilliseconds);
        }

        _endpointReads = serviceReads;
    }

    private sealed record Pending(SessionState? Session, string? PayloadAction);

    private sealed class SessionState
    {
        public volatile PayloadReads ServiceReads = PayloadReads.Nothing;
    }
}
