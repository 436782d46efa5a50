using ProtoBuf;
using Surrogate.Wire;

namespace Surrogate.Columns;

/// <summary>
/// An object column: each non-null cell's type tag (from the closed value types) in the column's tag stream, and its
/// value in the streams that type uses, in row order, as in a column of that type. Payloads from writers before the
/// tag stream carry one tagged Value message per cell instead; both read back the same.
/// </summary>
internal sealed class ObjectColumnCodec() : ColumnCodec(TypeTag.Object, typeof(object))
{
    public override void Append(ColumnValues values, object value)
    {
        var codec = ValueCodec.For(value);
        values.AddTag(codec.Tag);
        codec.Append(values, value);
    }

    public override object Take(ColumnCursor cursor) => cursor.HasTags ? ValueCodec.ForTag(cursor.NextTag()).Take(cursor) : cursor.NextObject();

    public override void Skip(ColumnCursor cursor)
    {
        if (cursor.HasTags)
        {
            ValueCodec.ForTag(cursor.NextTag()).Skip(cursor);
        }
        else
        {
            cursor.NextObject();
        }
    }
}

/// <summary>
/// The tagged Value message: a type tag from the closed table plus the same streams a ColumnData uses, holding one
/// value. Used by DefaultValue and extended properties, and by object cells in payloads from older writers.
/// </summary>
internal static class ValueCodec
{
    public static bool IsAllowed(object value) => value is DBNull || ColumnCodecs.ForValueType(value.GetType()) is not null;

    /// <summary>The codec for a value of an object column, default value or extended property; refused outside the closed value types.</summary>
    public static ColumnCodec For(object value) =>
        ColumnCodecs.ForValueType(value.GetType())
            ?? Throw.Invalid<ColumnCodec>($"A value of type '{value.GetType()}' is not in the closed set of types an object column, default value or extended property may hold.");

    public static ColumnCodec ForTag(TypeTag tag) =>
        ColumnCodecs.ForValueTag(tag)
            ?? Throw.Invalid<ColumnCodec>($"A tagged value has type tag {(int)tag}, which is not an allowed value type.");

    /// <summary>Writes a Value message as field <paramref name="field"/>; <paramref name="scratch"/> accumulates its streams.</summary>
    public static void Write(ref WireWriter writer, int field, object value, ColumnValues scratch)
    {
        var codec = For(value);
        scratch.Clear();
        codec.Append(scratch, value);
        var token = writer.BeginMessage(field, 2 + scratch.EstimatedBytes);
        writer.UInt(ValueField.Tag, (int)codec.Tag);
        ColumnDataCodec.WriteStreams(ref writer, scratch, allowChoices: false);
        writer.EndMessage(token);
        scratch.Clear();
    }

    /// <summary>
    /// Reads a Value message (the reader is positioned on its field header) through <paramref name="cursor"/>, which
    /// is reset before and after: a Value holds a single value, so its arrays stay at one slot.
    /// </summary>
    public static object Read(ref ProtoReader.State state, SurrogateOptions options, ColumnCursor cursor)
    {
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
                else if (field is DataField.Values or DataField.ValueTags || !ColumnDataCodec.ReadStreamField(ref state, field, cursor, 1, options))
                {
                    // Values do not nest: a Value inside a Value is an unknown field, skipped without being read.
                    state.SkipField();
                }
            }

            state.EndSubItem(token);
            ColumnDataCodec.Finish(cursor);
            return ForTag(tag).Take(cursor);
        }
        finally
        {
            // The value read last must not stay reachable from the thread.
            cursor.Reset();
        }
    }
}
