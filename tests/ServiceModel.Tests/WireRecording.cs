using System.Buffers;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The bytes a relay saw in each direction since the last <see cref="Reset"/> (shared by both relays).</summary>
public sealed class WireRecording
{
    private readonly object _gate = new();
    private readonly ArrayBufferWriter<byte> _sent = new();
    private readonly ArrayBufferWriter<byte> _received = new();

    /// <summary>Bytes client → host.</summary>
    public byte[] Sent { get { lock (_gate) { return _sent.WrittenSpan.ToArray(); } } }

    /// <summary>Bytes host → client.</summary>
    public byte[] Received { get { lock (_gate) { return _received.WrittenSpan.ToArray(); } } }

    public void Reset()
    {
        lock (_gate)
        {
            _sent.Clear();
            _received.Clear();
        }
    }

    public void Record(bool toHost, byte[] buffer, int count)
    {
        lock (_gate)
        {
            (toHost ? _sent : _received).Write(buffer.AsSpan(0, count));
        }
    }
}
