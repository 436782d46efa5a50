namespace Surrogate.Compression.Policies;

/// <summary>
/// Times one session encoder's sends and receives for the link estimate: a send followed by a receive, where the send
/// answered exactly one receive (or opened the session), is one round trip — a client's request and its reply, or a
/// service's reply and the client's next request. Overlapping calls on one session and one-way messages break the
/// alternation and are not timed. Only session encoders (one per connection) have a clock: the shared encoder of a
/// sessionless transport serves every connection at once.
/// <para>
/// A transport may read a connection's messages with one session encoder and write them with another: CoreWCF's
/// net.tcp service does (its framing middleware creates one to read, the duplex session channel another to write), so
/// each clock saw only sends or only receives and the service never timed a round trip. The reading encoder therefore
/// puts its clock on each message it reads (<see cref="Tag"/>), and the writing one times its reply on the clock of
/// the request it answers (<see cref="ForReply"/>), which is the connection's.
/// </para>
/// <para>
/// A send that answered a receive also ends a call's cycle at the next receive: from the request the reply answered
/// to the caller's next request, everything one call took with the reply's step (the service's work and codec, the
/// link, the caller's decoding and its next request). The policy learns from it how far its latency model is off for
/// that step (<paramref name="cycle"/>, with the choice the send went out as), where no other session of the policy
/// received or sent between the call's request and its reply (<paramref name="overlap"/>, which numbers both and
/// counts such replies): a call that overlapped others waited behind their work too.
/// </para>
/// </summary>
internal sealed class RoundTripClock(
    LinkEstimator link, IPolicyEnvironment env, Action<CompressionChoice, long>? cycle = null, CallOverlap? overlap = null)
{
    /// <summary>The message property that carries the reading encoder's clock.</summary>
    public const string PropertyName = "Surrogate.Compression.RoundTripClock";
    private readonly Lock _gate = new();
    private int _receivedSinceSend;
    private bool _sentBefore;
    private bool _armed;
    private bool _lastWasSend;
    private long _sentAt;
    private long _sentWire;
    private long _sentLength;
    private long _receivedAt;
    private long _answeredAt = -1;
    private CompressionChoice _sentAs;
    private long _receivedEvent;

    /// <summary>
    /// A message of <paramref name="length"/> bytes went out in a frame of <paramref name="wire"/>, as
    /// <paramref name="sentAs"/> chose (default: not as a policy chose it).
    /// </summary>
    public void Sent(long wire, long length, in CompressionChoice sentAs = default)
    {
        long now = env.Timestamp;
        lock (_gate)
        {
            bool alone = overlap is null || overlap.Next() == _receivedEvent + 1;
            _answeredAt = _receivedSinceSend == 1 && alone ? _receivedAt : -1;
            if (_receivedSinceSend == 1)
            {
                overlap?.Replied(alone, now);
            }

            _sentAs = sentAs;
            _armed = _receivedSinceSend == 1 || (!_sentBefore && _receivedSinceSend == 0);
            _sentBefore = true;
            _receivedSinceSend = 0;
            _lastWasSend = true;
            _sentAt = now;
            _sentWire = wire;
            _sentLength = length;
        }
    }

    /// <summary>A frame of <paramref name="wire"/> bytes holding <paramref name="length"/> came in.</summary>
    public void Received(long wire, long length)
    {
        long now = env.Timestamp;
        long gap;
        long wireBytes;
        long lengthBytes;
        long answered;
        CompressionChoice sentAs;
        lock (_gate)
        {
            _receivedEvent = overlap?.Next() ?? 0;
            bool timed = _lastWasSend && _armed;
            _receivedSinceSend++;
            _receivedAt = now;
            _lastWasSend = false;
            _armed = false;
            if (!timed)
            {
                return;
            }

            gap = now - _sentAt;
            wireBytes = _sentWire + wire;
            lengthBytes = _sentLength + length;
            (answered, sentAs) = (_answeredAt, _sentAs);
        }

        link.OnRoundTrip(gap, wireBytes, lengthBytes, now);
        if (cycle is not null && answered >= 0 && sentAs.Key is not null)
        {
            cycle(sentAs, now - answered);
        }
    }

    /// <summary>Puts this clock on a message read through it, so the reply to it is timed here.</summary>
    public void Tag(IDictionary<string, object> properties) => properties[PropertyName] = this;

    /// <summary>
    /// The clock to time a reply on: the one of the request it answers (<paramref name="request"/>: that request's
    /// properties, when known), else the writing encoder's own <paramref name="own"/>. Null when the policy does not
    /// time round trips.
    /// </summary>
    public static RoundTripClock? ForReply(RoundTripClock? own, IDictionary<string, object>? request) =>
        own is not null && request is not null && request.TryGetValue(PropertyName, out object? value) && value is RoundTripClock paired ? paired : own;
}
