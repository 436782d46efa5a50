using System.Buffers;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text.Unicode;

namespace Surrogate.Wire;

/// <summary>
/// A growable protobuf writer over one pooled array, for the row blocks (the bulk of a payload). Nested messages and
/// packed runs are written in place: the length prefix is reserved from a size hint and fixed up at the end (the body
/// moves only when the hint picked the wrong prefix size), so cell bytes are written once instead of being copied up
/// through a writer per nesting level. The bytes are exactly what protobuf-net writes for the same fields.
/// </summary>
internal sealed class WireBuffer : IDisposable
{
    private const int VarintWire = 0, LengthWire = 2;
    private const int MaxCachedBytes = 16 << 20;

    // One buffer is kept per thread, so a payload's blocks reuse the size the previous payload grew it to.
    [ThreadStatic]
    private static WireBuffer? t_cached;

    private byte[] _buffer;
    private int _position;

    public WireBuffer(int initialCapacity) => _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);

    public static WireBuffer Rent()
    {
        var cached = t_cached;
        t_cached = null;
        return cached ?? new WireBuffer(4096);
    }

    /// <summary>Gives the buffer back to the thread's cache (or frees it if it grew too large to keep).</summary>
    public void Return()
    {
        if (_buffer.Length > MaxCachedBytes || t_cached is not null)
        {
            Dispose();
            return;
        }

        _position = 0;
        t_cached = this;
    }

    public ReadOnlySpan<byte> Written => _buffer.AsSpan(0, _position);

    public void Clear() => _position = 0;

    public void UInt(int field, long value)
    {
        Tag(field, VarintWire);
        Varint((ulong)value);
    }

    public void SInt(int field, long value)
    {
        Tag(field, VarintWire);
        Varint(ZigZag(value));
    }

    public void Bytes(int field, ReadOnlySpan<byte> value)
    {
        Tag(field, LengthWire);
        Varint((uint)value.Length);
        Ensure(value.Length);
        value.CopyTo(_buffer.AsSpan(_position));
        _position += value.Length;
    }

    /// <summary>
    /// A string field, encoded straight into the buffer. Strict: a lone surrogate has no UTF-8 form and is refused,
    /// never replaced. UTF-8 is never shorter than the UTF-16 length, so the prefix reserved from it is rarely wrong.
    /// </summary>
    public void String(int field, string value)
    {
        Tag(field, LengthWire);
        var reserved = VarintSize((uint)value.Length);
        Ensure(checked(reserved + 5 + (value.Length * 3)));
        var start = _position + reserved;
        var status = Utf8.FromUtf16(value, _buffer.AsSpan(start), out var charsRead, out var bytesWritten, replaceInvalidSequences: false);
        if (status != OperationStatus.Done)
        {
            Throw.Invalid($"A string holds a lone surrogate (U+{(int)value[charsRead]:X4} at index {charsRead}), which UTF-8 cannot carry; it is refused rather than replaced.");
        }

        _position = start + bytesWritten;
        FixPrefix(start, reserved, bytesWritten);
    }

    /// <summary>A packed repeated varint field (zigzag for sint64), omitted when empty.</summary>
    public void Packed(int field, ReadOnlySpan<long> values, bool zigzag)
    {
        if (values.IsEmpty)
        {
            return;
        }

        // A varint is at most 10 bytes: reserving that much once keeps the loop free of capacity checks.
        var token = BeginMessage(field, values.Length);
        Ensure(checked(values.Length * 10));
        var buffer = _buffer;
        var position = _position;
        foreach (var value in values)
        {
            var v = zigzag ? ZigZag(value) : (ulong)value;
            while (v >= 0x80)
            {
                buffer[position++] = (byte)(v | 0x80);
                v >>= 7;
            }

            buffer[position++] = (byte)v;
        }

        _position = position;
        EndMessage(token);
    }

    /// <summary>Starts a nested message; <paramref name="sizeHint"/> is its expected length (it picks the prefix size).</summary>
    public MessageToken BeginMessage(int field, int sizeHint)
    {
        Tag(field, LengthWire);
        var reserved = VarintSize((uint)Math.Max(sizeHint, 0));
        Ensure(reserved);
        _position += reserved;
        return new MessageToken(_position, reserved);
    }

    public void EndMessage(MessageToken token) => FixPrefix(token.Start, token.Reserved, _position - token.Start);

    /// <summary>Writes what the buffer holds to a protobuf-net writer as one length-delimited field, then clears it.</summary>
    public void EmitTo(ref ProtoBuf.ProtoWriter.State parent, int field)
    {
        parent.WriteFieldHeader(field, ProtoBuf.WireType.String);
        parent.WriteBytes(Written);
        _position = 0;
    }

    public void Dispose()
    {
        var buffer = _buffer;
        _buffer = [];
        _position = 0;
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    public static int VarintSize(ulong value) => ((64 - BitOperations.LeadingZeroCount(value | 1)) + 6) / 7;

    private static ulong ZigZag(long value) => (ulong)((value << 1) ^ (value >> 63));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Tag(int field, int wireType) => Varint((uint)((field << 3) | wireType));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Varint(ulong value)
    {
        if (value < 0x80 && _position < _buffer.Length)
        {
            _buffer[_position++] = (byte)value;
            return;
        }

        VarintSlow(value);
    }

    private void VarintSlow(ulong value)
    {
        Ensure(10);
        while (value >= 0x80)
        {
            _buffer[_position++] = (byte)(value | 0x80);
            value >>= 7;
        }

        _buffer[_position++] = (byte)value;
    }

    // The body (ending at the current position) starts at `start`, after `reserved` bytes left for its length; it
    // moves only if the real prefix size differs. The prefix is written in place: nothing here may grow the buffer
    // except the one Ensure, which keeps the body.
    private void FixPrefix(int start, int reserved, int length)
    {
        var needed = VarintSize((uint)length);
        var at = start - reserved;
        if (needed != reserved)
        {
            if (needed > reserved)
            {
                Ensure(needed - reserved);
            }

            _buffer.AsSpan(start, length).CopyTo(_buffer.AsSpan(at + needed));
        }

        var value = (uint)length;
        while (value >= 0x80)
        {
            _buffer[at++] = (byte)(value | 0x80);
            value >>= 7;
        }

        _buffer[at++] = (byte)value;
        _position = at + length;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Ensure(int count)
    {
        if (_buffer.Length - _position < count)
        {
            Grow(count);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int count)
    {
        var next = ArrayPool<byte>.Shared.Rent(checked(Math.Max(_buffer.Length * 2, _position + count)));
        _buffer.AsSpan(0, _position).CopyTo(next);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = next;
    }
}

/// <summary>Where a nested message's body starts and how many bytes were left before it for its length.</summary>
internal readonly record struct MessageToken(int Start, int Reserved);
