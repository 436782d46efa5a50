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
    public static void Message<T>(ref ProtoWriter.State parent, int field, T arg, MessageBody<T> body)
    {
        using var buffer = new PooledBufferWriter();
        Build(buffer, arg, body);
        parent.WriteFieldHeader(field, WireType.String);
        parent.WriteBytes(buffer.WrittenSpan);
    }

    public static void Build<T>(PooledBufferWriter buffer, T arg, MessageBody<T> body)
    {
        var state = ProtoWriter.State.Create(buffer, null, null);
        try
        {
            body(ref state, arg);
            state.Close();
        }
        finally
        {
            state.Dispose();
        }
    }

    public static void String(ref ProtoWriter.State state, int field, string? value)
    {
        if (value is null)
        {
            return;
        }

        state.WriteFieldHeader(field, WireType.String);
        state.WriteString(value);
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

    /// <summary>A packed repeated sint64 field (zigzag varints), omitted when empty.</summary>
    public static void PackedSInt(ref ProtoWriter.State state, int field, ReadOnlySpan<long> values) =>
        Packed(ref state, field, values, WireType.SignedVarint);

    /// <summary>A packed repeated uint32/enum field (plain varints), omitted when empty.</summary>
    public static void PackedUInt(ref ProtoWriter.State state, int field, ReadOnlySpan<long> values) =>
        Packed(ref state, field, values, WireType.Varint);

    private static void Packed(ref ProtoWriter.State state, int field, ReadOnlySpan<long> values, WireType wireType)
    {
        if (values.IsEmpty)
        {
            return;
        }

        using var buffer = new PooledBufferWriter(values.Length * 2);
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
    }
}
