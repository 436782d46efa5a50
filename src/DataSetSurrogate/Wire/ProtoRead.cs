using ProtoBuf;

namespace Surrogate.Wire;

/// <summary>Small helpers over protobuf-net's reader state that enforce our limits on what they return.</summary>
internal static class ProtoRead
{
    public static string String(ref ProtoReader.State state, int maxLength, string what)
    {
        var value = state.ReadString();
        if (value.Length > maxLength)
        {
            Throw.Limit(what + " length", value.Length, maxLength);
        }

        return value;
    }

    public static string Name(ref ProtoReader.State state, SurrogateOptions options) =>
        String(ref state, options.MaxNameLength, "name");

    public static byte[] Bytes(ref ProtoReader.State state, int maxLength, string what)
    {
        var value = state.AppendBytes(null);
        if (value.Length > maxLength)
        {
            Throw.Limit(what + " length", value.Length, maxLength);
        }

        return value;
    }

    /// <summary>Reads a zigzag (sint64) field.</summary>
    public static long SInt64(ref ProtoReader.State state)
    {
        state.Hint(WireType.SignedVarint);
        return state.ReadInt64();
    }

    public static int Int32(ref ProtoReader.State state, int min, int max, string what)
    {
        var value = state.ReadInt64();
        if (value < min || value > max)
        {
            Throw.Invalid($"The payload holds an out-of-range {what}: {value}.");
        }

        return (int)value;
    }

    /// <summary>Reads a packed (or single unpacked) run of varints, appending to <paramref name="values"/>.</summary>
    public static void Packed(ref ProtoReader.State state, WireType elementType, ref long[] values, ref int count, int maxCount, string what)
    {
        if (state.WireType != WireType.String)
        {
            state.Hint(elementType);
            Append(ref values, ref count, state.ReadInt64(), maxCount, what);
            return;
        }

        var token = state.StartSubItem();
        while (state.HasSubValue(elementType))
        {
            Append(ref values, ref count, state.ReadInt64(), maxCount, what);
        }

        state.EndSubItem(token);
    }

    public static int[] PackedOrdinals(ref ProtoReader.State state, int maxCount, string what)
    {
        long[] values = [];
        var count = 0;
        Packed(ref state, WireType.Varint, ref values, ref count, maxCount, what);
        var result = new int[count];
        for (var i = 0; i < count; i++)
        {
            if (values[i] < 0 || values[i] >= maxCount)
            {
                Throw.Invalid($"The payload holds an out-of-range {what}: {values[i]}.");
            }

            result[i] = (int)values[i];
        }

        return result;
    }

    private static void Append(ref long[] values, ref int count, long value, int maxCount, string what)
    {
        if (count >= maxCount)
        {
            Throw.Invalid($"The payload holds more {what} than it declares ({maxCount}).");
        }

        if (count == values.Length)
        {
            Array.Resize(ref values, Math.Min(Math.Max(16, values.Length * 2), maxCount));
        }

        values[count++] = value;
    }
}
