using System.Buffers;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Xml;
using Surrogate.Wire;

namespace Surrogate.ServiceModel;

/// <summary>
/// The buffer the codec writes one value into (<see cref="DataSetSerializer.Serialize(IBufferWriter{byte}, System.Data.DataSet, SurrogateOptions?)"/>),
/// which hands what the codec advances over to the message's <see cref="XmlWriter"/> as the payload element's content
/// (<see cref="XmlWriter.WriteBase64"/>: raw bytes on the binary encoder, base64 text on the text encoder). The first
/// <see cref="StagingLimit"/> bytes are staged in the codec's pooled <see cref="SegmentedBuffer"/>: a value that fits
/// is written only once the codec has finished, so one the codec refuses can still go out as plain XML. A larger value
/// is written through piece by piece as the codec advances (start, each schema, each row block, tail), so it is never
/// held whole; before that, <c>checkBeforeWritingThrough</c> runs the checks that would otherwise refuse it with part
/// of it already written. The XML writer's copy is the only one made of the payload.
/// </summary>
internal sealed class PayloadContentWriter(XmlWriter writer, Action checkBeforeWritingThrough) : IBufferWriter<byte>, IDisposable
{
    /// <summary>Payload bytes held before writing through (1 MiB).</summary>
    public const int StagingLimit = 1 << 20;

    // While staging: the value so far. Once writing through: the piece the codec is writing, written out and reset on
    // each Advance (the reset keeps the segment, so the next piece reuses it).
    private readonly SegmentedBuffer _buffer = new();

    /// <summary>Payload bytes the codec has written.</summary>
    public long Length { get; private set; }

    /// <summary>Whether any of the element (marker or content) has been written, so a fallback is no longer possible.</summary>
    public bool WroteToWriter { get; private set; }

    /// <summary>The exception the XML writer (the transport under it) threw, if any: the real cause of a failed write.</summary>
    public Exception? WriterFailure { get; private set; }

    public Memory<byte> GetMemory(int sizeHint = 0) => _buffer.GetMemory(sizeHint);

    public Span<byte> GetSpan(int sizeHint = 0) => _buffer.GetSpan(sizeHint);

    public void Advance(int count)
    {
        _buffer.Advance(count);
        Length += count;
        if (!WroteToWriter)
        {
            if (_buffer.Length <= StagingLimit)
            {
                return;
            }

            checkBeforeWritingThrough();
            WriteMarker();
        }

        WriteOut();
    }

    /// <summary>Writes what is still held, once the codec has finished.</summary>
    public void Complete()
    {
        if (!WroteToWriter)
        {
            WriteMarker();
            WriteOut();
        }
    }

    public void Dispose() => _buffer.Dispose();

    private void WriteMarker()
    {
        WroteToWriter = true;
        try
        {
            writer.WriteAttributeString(SurrogatePayload.PayloadPrefix, SurrogatePayload.PayloadAttribute, SurrogatePayload.PayloadNamespace, SurrogatePayload.PayloadVersion);
        }
        catch (Exception e)
        {
            WriterFailure = e;
            throw;
        }
    }

    private void WriteOut()
    {
        try
        {
            foreach (ReadOnlyMemory<byte> piece in _buffer.AsSequence())
            {
                // The buffer's segments are pooled arrays, which is what the array-based XmlWriter API takes.
                bool isArray = MemoryMarshal.TryGetArray(piece, out ArraySegment<byte> bytes);
                Debug.Assert(isArray, "SegmentedBuffer holds arrays.");
                writer.WriteBase64(bytes.Array!, bytes.Offset, bytes.Count);
            }
        }
        catch (Exception e)
        {
            WriterFailure = e;
            throw;
        }

        _buffer.Reset();
    }
}
