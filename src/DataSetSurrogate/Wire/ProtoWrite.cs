using System.Buffers;
using System.Text.Unicode;
using ProtoBuf;

namespace Surrogate.Wire;

/// <summary>Writes the body of a nested message.</summary>
internal delegate void MessageBody<in T>(ref ProtoWriter.State state, T arg);

/// <summary>
/// Small helpers over protobuf-net's writer state. Nested messages are built in a pooled scratch buffer and then
/// written as length-delimited bytes (the copy is cheap next to the DataTable work around it).
/// </summary>
internal static class ProtoWrite
{
    // Scratch buffers are reused per thread (one per nesting level in use), so a block's buffers stop growing
    // after the first block instead of doubling their way up again for every message.
    [ThreadStatic]
    private static Stack<PooledBufferWriter>? t_scratch;

    private const int MaxCachedScratch = 8 << 20;

    public static void Message<T>(ref ProtoWriter.State parent, int field, T arg, MessageBody<T> body)
    {
        var buffer = RentScratch();
        try
        {
            Build(buffer, arg, body);
            parent.WriteFieldHeader(field, WireType.String);
            parent.WriteBytes(buffer.WrittenSpan);
        }
        finally
        {
            ReturnScratch(buffer);
        }
    }

    public static PooledBufferWriter RentScratch()
    {
        var cache = t_scratch;
        if (cache is not null && cache.TryPop(out var buffer))
        {
            return buffer;
        }

        return new PooledBufferWriter(1024);
    }

    public static void ReturnScratch(PooledBufferWriter buffer)
    {
        if (buffer.Capacity > MaxCachedScratch)
        {
            buffer.Dispose();
            return;
        }

        buffer.Clear();
        (t_scratch ??= new Stack<PooledBufferWriter>()).Push(buffer);
    }

    public static void Build<T>(PooledBufferWriter buffer, T arg, MessageBody<T> body)
    {
        var state = ProtoWriter.State.Create(buffer, null, null);
        try
        {
            body(ref state, arg);
            state.Close();
        }
        catch
        {
            // Disposing an unflushed writer throws, which would hide the real failure.
            state.Abandon();
            throw;
        }
        finally
        {
            state.Dispose();
        }
    }

    [ThreadStatic]
    private static byte[]? t_utf8;

    /// <summary>
    /// A string field. The UTF-8 is produced here (strictly: a lone surrogate has no UTF-8 form and is refused, never
    /// replaced) and written as the field's bytes, which is also about twice as fast as the general string path.
    /// </summary>
    public static void String(ref ProtoWriter.State state, int field, string? value)
    {
        if (value is null)
        {
            return;
        }

        var maxBytes = checked(value.Length * 3);
        var pooled = maxBytes > 16 * 1024;
        var scratch = pooled ? ArrayPool<byte>.Shared.Rent(maxBytes) : (t_utf8 ??= new byte[48 * 1024]);
        try
        {
            var status = Utf8.FromUtf16(value, scratch, out var charsRead, out var bytesWritten, replaceInvalidSequences: false);
            if (status != OperationStatus.Done)
            {
                Throw.Invalid($"A string holds a lone surrogate (U+{(int)value[charsRead]:X4} at index {charsRead}), which UTF-8 cannot carry; it is refused rather than replaced.");
            }

            state.WriteFieldHeader(field, WireType.String);
            state.WriteBytes(new ReadOnlySpan<byte>(scratch, 0, bytesWritten));
        }
        finally
        {
            if (pooled)
            {
                ArrayPool<byte>.Shared.Return(scratch);
            }
        }
    }

    /// <summary>A string whose absence means empty (namespaces, prefixes): omitted when empty.</summary>
    public static void NonEmpty(ref ProtoWriter.State state, int field, string? value)
    {
        if (!string.IsNullOrEmpty(value))
        {
            String(ref state, field, value);
        }
    }

    public static void Bool(ref ProtoWriter.State state, int field, bool value)
    {
        state.WriteFieldHeader(field, WireType.Varint);
        state.WriteBoolean(value);
    }

    public static void UInt(ref ProtoWriter.State state, int field, long value)
    {
        state.WriteFieldHeader(field, WireType.Varint);
        state.WriteInt64(value);
    }

    public static void SInt(ref ProtoWriter.State state, int field, long value)
    {
        state.WriteFieldHeader(field, WireType.SignedVarint);
        state.WriteInt64(value);
    }

    public static void Bytes(ref ProtoWriter.State state, int field, ReadOnlySpan<byte> value)
    {
        state.WriteFieldHeader(field, WireType.String);
        state.WriteBytes(value);
    }

    /// <summary>A packed repeated uint32/enum field (plain varints), omitted when empty.</summary>
    public static void PackedUInt(ref ProtoWriter.State state, int field, ReadOnlySpan<long> values) =>
        Packed(ref state, field, values, WireType.Varint);

    private static void Packed(ref ProtoWriter.State state, int field, ReadOnlySpan<long> values, WireType wireType)
    {
        if (values.IsEmpty)
        {
            return;
        }

        var buffer = RentScratch();
        var inner = ProtoWriter.State.Create(buffer, null, null);
        try
        {
            inner.SetPackedField(field);
            foreach (var value in values)
            {
                inner.WriteFieldHeader(field, wireType);
                inner.WriteInt64(value);
            }

            inner.ClearPackedField(field);
            inner.Close();
        }
        finally
        {
            inner.Dispose();
        }

        state.WriteFieldHeader(field, WireType.String);
        state.WriteBytes(buffer.WrittenSpan);
        ReturnScratch(buffer);
    }
}
