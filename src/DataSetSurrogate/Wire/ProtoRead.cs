using System.Buffers;
using System.Text;
using ProtoBuf;
using ProtoBuf.Serializers;

namespace Surrogate.Wire;

/// <summary>Small helpers over protobuf-net's reader state that enforce our limits on what they return.</summary>
internal static class ProtoRead
{
    /// <summary>
    /// Reads a string whose UTF-8 length is at most <paramref name="maxBytes"/>; the length prefix is checked before
    /// anything is allocated or decoded.
    /// </summary>
    public static string String(ref ProtoReader.State state, int maxBytes, string what, string option)
    {
        var chunk = state.AppendBytes(new LimitedChunk(maxBytes, what, option), LimitedChunk.Scratch);
        if (chunk.Buffer is null)
        {
            return "";
        }

        try
        {
            // As protobuf-net's own ReadString: invalid UTF-8 becomes U+FFFD.
            return Encoding.UTF8.GetString(chunk.Buffer, 0, chunk.Length);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(chunk.Buffer);
        }
    }

    /// <summary>
    /// Reads a string of at most <paramref name="maxChars"/> UTF-16 characters. UTF-8 needs at most three bytes per
    /// UTF-16 character, so the length prefix is held to three times the limit before decoding.
    /// </summary>
    public static string Text(ref ProtoReader.State state, int maxChars, string what, string option)
    {
        var value = String(ref state, (int)Math.Min(int.MaxValue, 3L * maxChars), what + " (in UTF-8 bytes, at most 3 per character)", option);
        if (value.Length > maxChars)
        {
            Throw.Limit(what + " length", value.Length, maxChars, option);
        }

        return value;
    }

    public static string Name(ref ProtoReader.State state, SurrogateOptions options) =>
        Text(ref state, options.MaxNameLength, "name", nameof(SurrogateOptions.MaxNameLength));

    /// <summary>Reads a byte array of at most <paramref name="maxLength"/> bytes, checked before it is allocated.</summary>
    public static byte[] Bytes(ref ProtoReader.State state, int maxLength, string what, string? option) =>
        state.AppendBytes(new LimitedChunk(maxLength, what, option), LimitedChunk.Exact).Buffer ?? [];

    /// <summary>
    /// Reads a byte field of at most <paramref name="maxLength"/> bytes into <paramref name="buffer"/>, which is replaced
    /// by a larger one only when the value does not fit; returns the value's length.
    /// </summary>
    public static int BytesInto(ref ProtoReader.State state, ref byte[] buffer, int maxLength, string what)
    {
        var chunk = state.AppendBytes(new LimitedChunk(maxLength, what, null, buffer), LimitedChunk.Reuse);
        buffer = chunk.Buffer ?? buffer;
        return chunk.Length;
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

    /// <summary>
    /// The bytes of one length-delimited field, with the limit they must respect: protobuf-net hands the length
    /// prefix to the converter's <c>Expand</c> before it reads (or allocates for) the bytes, which is where the limit is checked.
    /// </summary>
    private readonly record struct LimitedChunk(int MaxLength, string What, string? Option, byte[]? Buffer = null, int Length = 0)
    {
        /// <summary>Allocates exactly the value's length (the array is the result).</summary>
        public static readonly IMemoryConverter<LimitedChunk, byte> Exact = new Converter(pooled: false);

        /// <summary>Rents from the shared pool (the bytes are decoded and the array returned at once).</summary>
        public static readonly IMemoryConverter<LimitedChunk, byte> Scratch = new Converter(pooled: true);

        /// <summary>Fills the caller's array (<see cref="Buffer"/>), allocating a larger one only if the value does not fit.</summary>
        public static readonly IMemoryConverter<LimitedChunk, byte> Reuse = new Converter(pooled: false, reuse: true);

        private sealed class Converter(bool pooled, bool reuse = false) : IMemoryConverter<LimitedChunk, byte>
        {
            public LimitedChunk NonNull(in LimitedChunk value) => value;

            public int GetLength(in LimitedChunk value) => value.Length;

            public Memory<byte> GetMemory(in LimitedChunk value) => value.Buffer.AsMemory(0, value.Length);

            public Memory<byte> Expand(ISerializationContext context, ref LimitedChunk value, int additionalCapacity)
            {
                // The chunk starts empty, so this runs once per field, with its length prefix.
                if (additionalCapacity < 0 || additionalCapacity > value.MaxLength)
                {
                    Throw.Limit(value.What + " length", additionalCapacity, value.MaxLength, value.Option);
                }

                var buffer = reuse && value.Buffer is { } existing && existing.Length >= additionalCapacity ? existing
                    : pooled ? ArrayPool<byte>.Shared.Rent(additionalCapacity)
                    : new byte[additionalCapacity];
                value = value with { Buffer = buffer, Length = additionalCapacity };
                return buffer.AsMemory(0, additionalCapacity);
            }
        }
    }
}
