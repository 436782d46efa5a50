namespace Surrogate.Compression.Policies;

/// <summary>
/// Times one session encoder's sends and receives for the link estimate: a send followed by a receive, where the send
/// answered exactly one receive (or opened the session), is one round trip — a client's request and its reply, or a
/// service's reply and the client's next request. Overlapping calls on one session and one-way messages break the
/// alternation and are not timed. Only session encoders (one per connection) have a clock: the shared encoder of a
/// sessionless transport serves every connection at once.
/// </summary>
internal sealed class RoundTripClock(LinkEstimator link, IPolicyEnvironment env)
{
    private readonly Lock _gate = new();
    private int _receivedSinceSend;
    private bool _sentBefore;
    private bool _armed;
    private bool _lastWasSend;
    private long _sentAt;
    private long _sentWire;
    private long _sentLength;

    /// <summary>A message of <paramref name="length"/> bytes went out in a frame of <paramref name="wire"/>.</summary>
    public void Sent(long wire, long length)
    {
        long now = env.Timestamp;
        lock (_gate)
        {
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
        lock (_gate)
        {
            bool timed = _lastWasSend && _armed;
            _receivedSinceSend++;
            _lastWasSend = false;
            _armed = false;
            if (!timed)
            {
                return;
            }

            gap = now - _sentAt;
            wireBytes = _sentWire + wire;
            lengthBytes = _sentLength + length;
        }

        link.OnRoundTrip(gap, wireBytes, lengthBytes, now);
    }
}
