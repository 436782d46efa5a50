using ProtoBuf;
using Surrogate.Wire;

namespace Surrogate.Columns;

/// <summary>
/// Writes and reads the ColumnData message: null bitmap, then the value streams. Chooses per block whether integers
/// are delta coded and whether strings are dictionary coded.
/// </summary>
internal static class ColumnDataCodec
{
    private const int DictionaryProbe = 64;

    /// <summary>Writes one ColumnData message as field <paramref name="field"/> of the block being written.</summary>
    public static void Write(ref WireWriter writer, int field, ColumnValues values, ReadOnlySpan<byte> nullBitmap)
    {
        var token = writer.BeginMessage(field, values.EstimatedBytes + nullBitmap.Length);
        if (!nullBitmap.IsEmpty)
        {
            writer.Bytes(DataField.NullBitmap, nullBitmap);
        }

        WriteStreams(ref writer, values, allowChoices: true);
        writer.EndMessage(token);
    }

    /// <summary>Writes the value streams shared by ColumnData and Value (same field numbers).</summary>
    public static void WriteStreams(ref WireWriter writer, ColumnValues values, bool allowChoices)
    {
        var ints = values.Ints;
        if (allowChoices && DeltaPays(ints))
        {
            for (var i = ints.Length - 1; i > 0; i--)
            {
                ints[i] = unchecked(ints[i] - ints[i - 1]);
            }

            writer.UInt(DataField.IntEncoding, (int)IntEncoding.Delta);
        }

        writer.Packed(DataField.Ints, ints, zigzag: true);
        if (values.FixedLength > 0)
        {
            writer.Bytes(DataField.Fixed, values.Fixed);
        }

        if (!allowChoices || !TryWriteDictionary(ref writer, values))
        {
            foreach (var s in values.Strings)
            {
                writer.String(DataField.Strings, s);
            }
        }

        foreach (var blob in values.Blobs)
        {
            writer.Bytes(DataField.Blobs, blob);
        }

        writer.Packed(DataField.Aux, values.Aux, zigzag: true);
        writer.Packed(DataField.ValueTags, values.Tags, zigzag: false);
    }

    /// <summary>Reads one field of the value streams into the cursor; false if the field is not a stream field.</summary>
    public static bool ReadStreamField(ref ProtoReader.State state, int field, ColumnCursor cursor, int rows, SurrogateOptions options)
    {
        switch (field)
        {
            case DataField.Ints:
                ProtoRead.Packed(ref state, WireType.SignedVarint, ref cursor.IntBuffer, ref cursor.IntCount, rows, "integer values");
                return true;
            case DataField.IntEncoding:
                cursor.Delta = ProtoRead.Int32(ref state, 0, 1, "integer encoding") == (int)IntEncoding.Delta;
                return true;
            case DataField.Fixed:
                cursor.FixedLength = ProtoRead.BytesInto(ref state, ref cursor.FixedBuffer, checked(rows * 20), "fixed-width values");
                return true;
            case DataField.Strings:
                ColumnCursor.Add(ref cursor.StringBuffer, ref cursor.StringCount, ProtoRead.String(ref state, options.MaxStringLength, "string", nameof(SurrogateOptions.MaxStringLength)), rows);
                return true;
            case DataField.Dictionary:
                if (cursor.DictionaryCount >= rows)
                {
                    Throw.Invalid("A string dictionary is longer than its block.");
                }

                ColumnCursor.Add(ref cursor.DictionaryBuffer, ref cursor.DictionaryCount, ProtoRead.String(ref state, options.MaxStringLength, "string", nameof(SurrogateOptions.MaxStringLength)), rows);
                return true;
            case DataField.DictionaryIndex:
                ProtoRead.Packed(ref state, WireType.Varint, ref cursor.IndexBuffer, ref cursor.IndexCount, rows, "dictionary indexes");
                return true;
            case DataField.Blobs:
                ColumnCursor.Add(ref cursor.BlobBuffer, ref cursor.BlobCount, ProtoRead.Bytes(ref state, options.MaxBinaryLength, "binary value", nameof(SurrogateOptions.MaxBinaryLength)), rows);
                return true;
            case DataField.Values:
                ColumnCursor.Add(ref cursor.ObjectBuffer, ref cursor.ObjectCount, ValueCodec.Read(ref state, options, cursor.ValueCursor), rows);
                return true;
            case DataField.Aux:
                ProtoRead.Packed(ref state, WireType.SignedVarint, ref cursor.AuxBuffer, ref cursor.AuxCount, rows, "auxiliary values");
                return true;
            case DataField.ValueTags:
                ProtoRead.Packed(ref state, WireType.Varint, ref cursor.TagBuffer, ref cursor.TagCount, rows, "value type tags");
                return true;
            default:
                return false;
        }
    }

    /// <summary>Reads a ColumnData message (the reader is positioned on its field header) into the cursor.</summary>
    public static void Read(ref ProtoReader.State state, ColumnCursor cursor, int rows, SurrogateOptions options)
    {
        cursor.Reset();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            if (field == DataField.NullBitmap)
            {
                if (ProtoRead.BytesInto(ref state, ref cursor.NullBitmap, (rows + 7) >> 3, "null bitmap") != (rows + 7) >> 3)
                {
                    Throw.Invalid("A null bitmap does not match its block's row count.");
                }

                cursor.HasNulls = true;
            }
            else if (!ReadStreamField(ref state, field, cursor, rows, options))
            {
                state.SkipField();
            }
        }

        state.EndSubItem(token);
        Finish(cursor);
    }

    /// <summary>Undoes delta coding and resolves dictionary indexes, once every field of the message is in.</summary>
    public static void Finish(ColumnCursor cursor)
    {
        if (cursor.TagCount > 0 && cursor.ObjectCount > 0)
        {
            Throw.Invalid("A column holds both tagged values and Value messages.");
        }

        if (cursor.Delta)
        {
            var ints = cursor.IntBuffer;
            for (var i = 1; i < cursor.IntCount; i++)
            {
                ints[i] = unchecked(ints[i] + ints[i - 1]);
            }
        }

        if (cursor.DictionaryCount == 0 && cursor.IndexCount == 0)
        {
            return;
        }

        if (cursor.StringCount != 0)
        {
            Throw.Invalid("A column holds both plain and dictionary strings.");
        }

        if (cursor.StringBuffer.Length < cursor.IndexCount)
        {
            cursor.StringBuffer = new string[cursor.IndexCount];
        }

        var dictionary = cursor.DictionaryBuffer.AsSpan(0, cursor.DictionaryCount);
        for (var i = 0; i < cursor.IndexCount; i++)
        {
            var index = cursor.IndexBuffer[i];
            cursor.StringBuffer[i] = (ulong)index < (ulong)dictionary.Length ? dictionary[(int)index] : Throw.Invalid<string>("A dictionary index is out of range.");
        }

        cursor.StringCount = cursor.IndexCount;
    }

    private static bool DeltaPays(ReadOnlySpan<long> ints)
    {
        if (ints.Length < 4)
        {
            return false;
        }

        long plain = VarintSize(ints[0]), delta = plain;
        for (var i = 1; i < ints.Length; i++)
        {
            plain += VarintSize(ints[i]);
            delta += VarintSize(unchecked(ints[i] - ints[i - 1]));
        }

        return delta < plain;
    }

    private static int VarintSize(long value) => WireWriter.VarintSize(WireWriter.ZigZag(value));

    // Dictionary coding pays when the first strings of the block repeat; the probe set, map and index array are the
    // accumulator's, reused from block to block. The map lists entries in first-seen order, as the wire wants.
    private static bool TryWriteDictionary(ref WireWriter writer, ColumnValues values)
    {
        var strings = values.Strings;
        if (strings.Length < 8)
        {
            return false;
        }

        var probe = Math.Min(strings.Length, DictionaryProbe);
        var seen = values.ProbeSet;
        seen.Clear();
        foreach (var s in strings[..probe])
        {
            seen.Add(s);
        }

        if (seen.Count * 2 > probe)
        {
            return false;
        }

        var map = values.Dictionary;
        map.Clear();
        var indexes = values.DictionaryIndexes(strings.Length);
        for (var i = 0; i < strings.Length; i++)
        {
            if (!map.TryGetValue(strings[i], out var index))
            {
                index = map.Count;
                map.Add(strings[i], index);
                if (map.Count * 2 > strings.Length)
                {
                    return false;
                }
            }

            indexes[i] = index;
        }

        foreach (var entry in map.Keys)
        {
            writer.String(DataField.Dictionary, entry);
        }

        writer.Packed(DataField.DictionaryIndex, indexes, zigzag: false);
        return true;
    }
}
