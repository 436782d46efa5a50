using System.Buffers;
using ProtoBuf;
using Surrogate.Wire;

namespace Surrogate.Reader;

/// <summary>Reads one top-level field of a payload at a time.</summary>
internal delegate T FieldHandler<out T>(ref ProtoReader.State state, int field);

/// <summary>
/// Hands out a payload's top-level fields one by one to a forward-only reader, which cannot keep protobuf-net's
/// ref-struct reader state between calls. Memory sources resume from an offset; stream sources hold one field (a table schema or a row block).
/// </summary>
internal abstract class FrameSource : IDisposable
{
    /// <summary>Runs the handler on the next top-level field; false at the end of the payload.</summary>
    public abstract bool Next<T>(FieldHandler<T> handler, out T result);

    /// <summary>Payload bytes read so far, up to and including the current field.</summary>
    public abstract long BytesRead { get; }

    public virtual void Dispose()
    {
    }
}

internal sealed class SequenceFrameSource : FrameSource
{
    private readonly ReadOnlySequence<byte> _payload;
    private long _offset;

    public SequenceFrameSource(in ReadOnlySequence<byte> payload, SurrogateOptions options)
    {
        if (payload.Length > options.MaxTotalBytes)
        {
            Throw.Limit("payload bytes", payload.Length, options.MaxTotalBytes, nameof(SurrogateOptions.MaxTotalBytes));
        }

        _payload = payload;
        var state = ProtoReader.State.Create(payload, null, null);
        try
        {
            PayloadReader.ReadPrologue(ref state);
            _offset = state.GetPosition();
        }
        finally
        {
            state.Dispose();
        }
    }

    /// <summary>The whole payload is in memory: all of it counts.</summary>
    public override long BytesRead => _payload.Length;

    public override bool Next<T>(FieldHandler<T> handler, out T result)
    {
        var state = ProtoReader.State.Create(_payload.Slice(_offset), null, null);
        try
        {
            var field = state.ReadFieldHeader();
            if (field <= 0)
            {
                result = default!;
                return false;
            }

            result = handler(ref state, field);
            _offset += state.GetPosition();
            return true;
        }
        finally
        {
            state.Dispose();
        }
    }
}

/// <summary>Reads a stream frame by frame: only the current frame's bytes are held.</summary>
internal sealed class StreamFrameSource : FrameSource
{
    private readonly Stream _stream;
    private readonly SurrogateOptions _options;
    private readonly SegmentedBuffer _frame = new();
    private long _consumed;

    /// <summary>The fields read so far, the current one included (the prologue's few bytes aside).</summary>
    public override long BytesRead => _consumed;

    public StreamFrameSource(Stream stream, SurrogateOptions options)
    {
        _stream = stream;
        _options = options;
        if (ProtoReader.DirectReadVarintInt32(stream) != ((PayloadField.Magic << 3) | (int)WireType.Fixed32)
            || unchecked((uint)ProtoReader.DirectReadLittleEndianInt32(stream)) != PayloadField.MagicValue)
        {
            Throw.Invalid("The input is not a DataSet surrogate payload (magic number missing).");
        }

        if (ProtoReader.DirectReadVarintInt32(stream) != (PayloadField.Version << 3) || ProtoReader.DirectReadVarintInt32(stream) != PayloadField.CurrentVersion)
        {
            Throw.Invalid($"The payload does not have format version {PayloadField.CurrentVersion}.");
        }

        if (ProtoReader.DirectReadVarintInt32(stream) != (PayloadField.Kind << 3))
        {
            Throw.Invalid("The payload does not say what it holds (kind missing).");
        }

        PayloadReader.CheckKind(ProtoReader.DirectReadVarintInt32(stream));
    }

    public override bool Next<T>(FieldHandler<T> handler, out T result)
    {
        var length = ProtoReader.ReadLengthPrefix(_stream, true, PrefixStyle.Base128, out var field, out var prefixBytes);
        if (prefixBytes == 0)
        {
            result = default!;
            return false;
        }

        _consumed += prefixBytes + (long)length;
        if (length < 0 || _consumed > _options.MaxTotalBytes)
        {
            Throw.Limit("payload bytes", _consumed, _options.MaxTotalBytes, nameof(SurrogateOptions.MaxTotalBytes));
        }

        // Rebuild the field (header, length, body) so the same parsers read it. The body is read straight into the
        // frame buffer in chunks, each byte once: a lying length costs only what the stream really supplies.
        _frame.Reset();
        WriteVarint(_frame, ((uint)field << 3) | (uint)WireType.String);
        WriteVarint(_frame, (uint)length);
        var remaining = length;
        while (remaining > 0)
        {
            var chunk = Math.Min(remaining, 1 << 16);
            var read = _stream.Read(_frame.GetSpan(chunk)[..chunk]);
            if (read <= 0)
            {
                Throw.Truncated();
            }

            _frame.Advance(read);
            remaining -= read;
        }

        var state = ProtoReader.State.Create(_frame.AsSequence(), null, null);
        try
        {
            result = handler(ref state, state.ReadFieldHeader());
            return true;
        }
        finally
        {
            state.Dispose();
        }
    }

    public override void Dispose()
    {
        _frame.Dispose();
        base.Dispose();
    }

    private static void WriteVarint(SegmentedBuffer buffer, uint value)
    {
        var span = buffer.GetSpan(5);
        var count = 0;
        while (value >= 0x80)
        {
            span[count++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[count++] = (byte)value;
        buffer.Advance(count);
    }
}
