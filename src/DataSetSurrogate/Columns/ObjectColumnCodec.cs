using ProtoBuf;
using Surrogate.Wire;

namespace Surrogate.Columns;

// An object column carries one tagged Value per non-null cell; only the closed primitive tags are accepted.
internal sealed class ObjectColumnCodec() : ColumnCodec(TypeTag.Object, typeof(object))
{
    public override void Append(ColumnValues values, object value) => values.AddValue(ValueCodec.Encode(value));

    public override object Take(ColumnCursor cursor) => cursor.NextObject();
}

/// <summary>
/// The tagged Value message: a type tag from the closed table plus the same streams a ColumnData uses, holding one
/// value. Used by object columns, DefaultValue and extended properties.
/// </summary>
internal static class ValueCodec
{
    public static bool IsAllowed(object value) => value is DBNull || ColumnCodecs.ForValueType(value.GetType()) is not null;

    public static byte[] Encode(object value)
    {
        using var buffer = new WireBuffer(64);
        WriteBody(buffer, value);
        return buffer.Written.ToArray();
    }

    public static void Write(ref ProtoWriter.State state, int field, object value)
    {
        using var buffer = new WireBuffer(64);
        WriteBody(buffer, value);
        buffer.EmitTo(ref state, field);
    }

    private static void WriteBody(WireBuffer buffer, object value)
    {
        var codec = ColumnCodecs.ForValueType(value.GetType())
            ?? Throw.Invalid<ColumnCodec>($"A value of type '{value.GetType()}' is not in the closed set of types an object column, default value or extended property may hold.");
        var values = new ColumnValues();
        codec.Append(values, value);
        buffer.UInt(ValueField.Tag, (int)codec.Tag);
        ColumnDataCodec.WriteStreams(buffer, values, allowChoices: false);
    }

    // One cursor per thread serves every Value read (cell, default value or property), reset after each: a Value
    // holds a single value, so the cursor's arrays stay at one slot.
    [ThreadStatic]
    private static ColumnCursor? t_cursor;

    /// <summary>Reads a Value message (the reader is positioned on its field header).</summary>
    public static object Read(ref ProtoReader.State state, SurrogateOptions options)
    {
        var cursor = t_cursor ??= new ColumnCursor();
        cursor.Reset();
        try
        {
            var tag = TypeTag.None;
            var token = state.StartSubItem();
            int field;
            while ((field = state.ReadFieldHeader()) > 0)
            {
                if (field == ValueField.Tag)
                {
                    tag = (TypeTag)ProtoRead.Int32(ref state, 0, 100, "value type tag");
                }
                else if (field == DataField.Values || !ColumnDataCodec.ReadStreamField(ref state, field, cursor, 1, options))
                {
                    // Values do not nest: a Value inside a Value is an unknown field, skipped without being read.
                    state.SkipField();
                }
            }

            state.EndSubItem(token);
            ColumnDataCodec.Finish(cursor);
            var codec = ColumnCodecs.ForValueTag(tag)
                ?? Throw.Invalid<ColumnCodec>($"A tagged value has type tag {(int)tag}, which is not an allowed value type.");
            return codec.Take(cursor);
        }
        finally
        {
            // The value read last must not stay reachable from the thread.
            cursor.Reset();
        }
    }
}
