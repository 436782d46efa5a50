using System.Buffers;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;

namespace Surrogate.Wire;

/// <summary>
/// The one protobuf writer of the codec: it writes straight into the spans of the caller's
/// <see cref="IBufferWriter{T}"/>, with a cached span, an inlined fast path and growth out of line. A nested message's
/// length prefix is reserved from a size hint and fixed up when the message ends (its body moves only when the hint
/// picked the wrong prefix size), so no message is built apart and copied. Everything from the outermost open message
/// on stays in one span; what lies before it is handed to the output (<see cref="IBufferWriter{T}.Advance"/>) whenever
/// a new span is needed, and at <see cref="Flush"/>. The bytes are the minimal protobuf encoding of each field.
/// </summary>
internal ref struct WireWriter
{
    private const int VarintWire = 0, Fixed32Wire = 5, LengthWire = 2;

    // Strings longer than this are measured before they are encoded, rather than reserving three bytes per character.
    private const int MeasuredStringLength = 4096;

    // A message's room is made up front only up to this much; a larger one grows as it is written.
    private const int MaxUpfrontBytes = 1 << 20;

    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _position;
    private long _spanStart;
    private int _depth;
    private int _openAt;

    public WireWriter(IBufferWriter<byte> output) => _output = output;

    /// <summary>Bytes written so far (handed on or not).</summary>
    public readonly long Written => _spanStart + _position;

    /// <summary>Hands everything written to the output; no message may be open.</summary>
    public void Flush()
    {
        if (_depth != 0)
        {
            throw new InvalidOperationException("A message is still open.");
        }

        if (_position > 0)
        {
            _output.Advance(_position);
            _spanStart += _position;
        }

        _span = default;
        _position = 0;
    }

    public void UInt(int field, long value)
    {
        Tag(field, VarintWire);
        Varint((ulong)value);
    }

    /// <summary>A zigzag (sint64) field.</summary>
    public void SInt(int field, long value)
    {
        Tag(field, VarintWire);
        Varint(ZigZag(value));
    }

    public void Bool(int field, bool value)
    {
        Tag(field, VarintWire);
        Varint(value ? 1UL : 0UL);
    }

    public void Fixed32(int field, uint value)
    {
        Tag(field, Fixed32Wire);
        Ensure(4);
        BinaryPrimitives.WriteUInt32LittleEndian(_span[_position..], value);
        _position += 4;
    }

    public void Bytes(int field, ReadOnlySpan<byte> value)
    {
        Tag(field, LengthWire);
        Varint((uint)value.Length);
        Ensure(value.Length);
        value.CopyTo(_span[_position..]);
        _position += value.Length;
    }

    /// <summary>
    /// A string field, encoded straight into the output. Strict: a lone surrogate has no UTF-8 form and is refused,
    /// never replaced. A null string writes nothing.
    /// </summary>
    public void String(int field, string? value)
    {
        if (value is null)
        {
            return;
        }

        Tag(field, LengthWire);
        // UTF-8 is never shorter than the UTF-16 length, so a prefix reserved from it is rarely wrong.
        var maxBytes = value.Length <= MeasuredStringLength ? value.Length * 3 : Encoding.UTF8.GetByteCount(value);
        var reserved = VarintSize((uint)value.Length);
        // Five spare bytes: the prefix can then grow in place (FixPrefix) without asking for a new span.
        Ensure(checked(reserved + maxBytes + 5));
        var start = _position + reserved;
        var status = Utf8.FromUtf16(value, _span[start..], out var charsRead, out var bytesWritten, replaceInvalidSequences: false);
        if (status != OperationStatus.Done)
        {
            Throw.Invalid($"A string holds a lone surrogate (U+{(int)value[charsRead]:X4} at index {charsRead}), which UTF-8 cannot carry; it is refused rather than replaced.");
        }

        _position = start + bytesWritten;
        FixPrefix(_spanStart + start, reserved, bytesWritten);
    }

    /// <summary>A string whose absence means empty (namespaces, prefixes): omitted when empty.</summary>
    public void NonEmpty(int field, string? value)
    {
        if (!string.IsNullOrEmpty(value))
        {
            String(field, value);
        }
    }

    /// <summary>A packed repeated varint field (zigzag for sint64), omitted when empty.</summary>
    public void Packed(int field, ReadOnlySpan<long> values, bool zigzag)
    {
        if (values.IsEmpty)
        {
            return;
        }

        var token = BeginMessage(field, values.Length);
        // A varint is at most 10 bytes: reserving that much once keeps the loop free of capacity checks.
        Ensure(checked(values.Length * 10));
        var span = _span;
        var position = _position;
        foreach (var value in values)
        {
            var v = zigzag ? ZigZag(value) : (ulong)value;
            while (v >= 0x80)
            {
                span[position++] = (byte)(v | 0x80);
                v >>= 7;
            }

            span[position++] = (byte)v;
        }

        _position = position;
        EndMessage(token);
    }

    /// <summary>
    /// Starts a nested message (a length-delimited field). <paramref name="sizeHint"/> is its expected length: it picks
    /// the prefix size, and that much room is made at once so the body is not moved while it is written.
    /// </summary>
    public MessageToken BeginMessage(int field, int sizeHint)
    {
        Tag(field, LengthWire);
        var hint = (uint)Math.Max(sizeHint, 0);
        var reserved = VarintSize(hint);
        if (_depth++ == 0)
        {
            _openAt = _position;
        }

        Ensure((int)Math.Min(MaxUpfrontBytes, reserved + hint));
        _position += reserved;
        return new MessageToken(_spanStart + _position, reserved);
    }

    /// <summary>Ends a nested message, writing its length; returns that length.</summary>
    public int EndMessage(MessageToken token)
    {
        var length = checked((int)(Written - token.Start));
        FixPrefix(token.Start, token.Reserved, length);
        _depth--;
        return length;
    }

    /// <summary>The body of the top-level message just ended (<see cref="EndMessage"/> returned <paramref name="length"/>).</summary>
    public readonly ReadOnlySpan<byte> MessageBody(MessageToken token, int length) =>
        _span.Slice(BodyAt(token, length), length);

    /// <summary>
    /// Replaces the body of the top-level message just ended with a shorter <paramref name="body"/>, in place; nothing
    /// may have been written since it ended.
    /// </summary>
    public void ReplaceMessageBody(MessageToken token, int length, ReadOnlySpan<byte> body)
    {
        if (_depth != 0 || body.Length >= length || BodyAt(token, length) + length != _position)
        {
            throw new InvalidOperationException("Only the top-level message just ended can be replaced, by a shorter body.");
        }

        var at = (int)(token.Start - _spanStart) - token.Reserved;
        var value = (uint)body.Length;
        while (value >= 0x80)
        {
            _span[at++] = (byte)(value | 0x80);
            value >>= 7;
        }

        _span[at++] = (byte)value;
        body.CopyTo(_span[at..]);
        _position = at + body.Length;
    }

    /// <summary>A bare varint, for the elements of a packed field written between <see cref="BeginMessage"/> and <see cref="EndMessage"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Varint(ulong value)
    {
        if (value < 0x80 && _position < _span.Length)
        {
            _span[_position++] = (byte)value;
            return;
        }

        VarintSlow(value);
    }

    public static int VarintSize(ulong value) => ((64 - BitOperations.LeadingZeroCount(value | 1)) + 6) / 7;

    public static ulong ZigZag(long value) => (ulong)((value << 1) ^ (value >> 63));

    // Where an ended message's body lies in the span: after its length prefix, which FixPrefix wrote at the reserved place.
    private readonly int BodyAt(MessageToken token, int length) => (int)(token.Start - _spanStart) - token.Reserved + VarintSize((uint)length);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Tag(int field, int wireType) => Varint((uint)((field << 3) | wireType));

    private void VarintSlow(ulong value)
    {
        Ensure(10);
        var span = _span;
        while (value >= 0x80)
        {
            span[_position++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[_position++] = (byte)value;
    }

    // The body (ending at the current position) starts at `start` (a payload offset), after `reserved` bytes left
    // for its length; it moves only if the real prefix size differs.
    private void FixPrefix(long start, int reserved, int length)
    {
        var needed = VarintSize((uint)length);
        if (needed > reserved)
        {
            Ensure(needed - reserved);
        }

        var body = (int)(start - _spanStart);
        var at = body - reserved;
        if (needed != reserved)
        {
            _span.Slice(body, length).CopyTo(_span[(at + needed)..]);
        }

        var value = (uint)length;
        while (value >= 0x80)
        {
            _span[at++] = (byte)(value | 0x80);
            value >>= 7;
        }

        _span[at++] = (byte)value;
        _position = at + length;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Ensure(int count)
    {
        if (_span.Length - _position < count)
        {
            Grow(count);
        }
    }

    // What precedes the outermost open message is finished: it is handed to the output. The open message must stay
    // contiguous, so its bytes move to the new span; they are saved first, because the output may reuse or spoil the
    // memory of a span it handed out once part of it is advanced or another is asked for.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int count)
    {
        var keep = _depth > 0 ? _openAt : _position;
        var pending = _position - keep;
        byte[]? saved = null;
        if (pending > 0)
        {
            saved = ArrayPool<byte>.Shared.Rent(pending);
            _span.Slice(keep, pending).CopyTo(saved);
        }

        if (keep > 0)
        {
            _output.Advance(keep);
            _spanStart += keep;
        }

        var size = pending == 0 ? count : checked(Math.Max(pending + count, pending * 2));
        _span = _output.GetSpan(size);
        if (_span.Length < size)
        {
            throw new InvalidOperationException($"The buffer writer returned {_span.Length} bytes where {size} were asked for.");
        }

        if (saved is not null)
        {
            saved.AsSpan(0, pending).CopyTo(_span);
            ArrayPool<byte>.Shared.Return(saved);
        }

        _position = pending;
        _openAt = 0;
    }
}

/// <summary>Where a nested message's body starts (a payload offset) and how many bytes were left before it for its length.</summary>
internal readonly record struct MessageToken(long Start, int Reserved);
