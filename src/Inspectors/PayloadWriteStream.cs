using System.Buffers;
using System.Xml;

namespace Surrogate.ServiceModel;

/// <summary>
/// Takes the codec's output for one value and hands it to the message's <see cref="XmlWriter"/> as the payload
/// element's content (<see cref="XmlWriter.WriteBase64"/>: raw bytes on the binary encoder, base64 text on the text
/// encoder). The first <see cref="StagingLimit"/> bytes are staged: a value that fits is written only once the codec
/// has finished, so one the codec refuses can still go out as plain XML. A larger value is written through as the
/// codec produces it (in 64 KiB chunks), so it is never held whole; before that, <c>checkBeforeWritingThrough</c>
/// runs the checks that would otherwise refuse it with part of it already written.
/// </summary>
internal sealed class PayloadWriteStream(XmlWriter writer, Action checkBeforeWritingThrough) : Stream
{
    /// <summary>Payload bytes held before writing through (1 MiB).</summary>
    public const int StagingLimit = 1 << 20;

    private readonly PayloadSegments _staged = new();
    private byte[]? _chunk;
    private int _chunkCount;
    private long _length;

    /// <summary>Whether any of the element (marker or content) has been written, so a fallback is no longer possible.</summary>
    public bool WroteToWriter { get; private set; }

    /// <summary>The exception the XML writer (the transport under it) threw, if any: the real cause of a failed write.</summary>
    public Exception? WriterFailure { get; private set; }

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => _length;

    public override long Position
    {
        get => _length;
        set => throw new NotSupportedException();
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        _length += buffer.Length;
        if (!WroteToWriter)
        {
            _staged.Write(buffer);
            if (_staged.Count > StagingLimit)
            {
                checkBeforeWritingThrough();
                WriteMarker();
                WriteOut(_staged);
                _staged.Dispose();
                _chunk = ArrayPool<byte>.Shared.Rent(PayloadSegments.SegmentSize);
            }

            return;
        }

        while (!buffer.IsEmpty)
        {
            int count = Math.Min(_chunk!.Length - _chunkCount, buffer.Length);
            buffer[..count].CopyTo(_chunk.AsSpan(_chunkCount));
            _chunkCount += count;
            buffer = buffer[count..];
            if (_chunkCount == _chunk.Length)
            {
                FlushChunk();
            }
        }
    }

    /// <summary>Writes what is still held, once the codec has finished.</summary>
    public void Complete()
    {
        if (!WroteToWriter)
        {
            WriteMarker();
            WriteOut(_staged);
            return;
        }

        FlushChunk();
    }

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _staged.Dispose();
            if (_chunk is not null)
            {
                ArrayPool<byte>.Shared.Return(_chunk);
                _chunk = null;
            }
        }

        base.Dispose(disposing);
    }

    private void FlushChunk()
    {
        WriteBase64(new ArraySegment<byte>(_chunk!, 0, _chunkCount));
        _chunkCount = 0;
    }

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

    private void WriteOut(PayloadSegments segments)
    {
        foreach (ArraySegment<byte> segment in segments.Segments)
        {
            WriteBase64(segment);
        }
    }

    private void WriteBase64(ArraySegment<byte> bytes)
    {
        try
        {
            writer.WriteBase64(bytes.Array!, bytes.Offset, bytes.Count);
        }
        catch (Exception e)
        {
            WriterFailure = e;
            throw;
        }
    }
}
