namespace Surrogate.Tests;

/// <summary>
/// Just enough protobuf reading and writing for tests that build hostile payloads by hand: fields of one message
/// level, with their positions, so a test can patch or replace exactly one field.
/// </summary>
internal static class ProtoWire
{
    public readonly record struct Field(int Number, int WireType, int Start, int ValueStart, int End, ulong Varint);

    public static List<Field> Fields(ReadOnlySpan<byte> message)
    {
        var fields = new List<Field>();
        var position = 0;
        while (position < message.Length)
        {
            var start = position;
            var tag = ReadVarint(message, ref position);
            var wireType = (int)(tag & 7);
            var valueStart = position;
            ulong varint = 0;
            switch (wireType)
            {
                case 0: varint = ReadVarint(message, ref position); break;
                case 1: position += 8; break;
                case 2:
                    var length = (int)ReadVarint(message, ref position);
                    valueStart = position;
                    position += length;
                    break;
                case 5: position += 4; break;
                default: throw new InvalidDataException($"wire type {wireType}");
            }

            fields.Add(new Field((int)(tag >> 3), wireType, start, valueStart, position, varint));
        }

        return fields;
    }

    public static ulong ReadVarint(ReadOnlySpan<byte> data, ref int position)
    {
        ulong value = 0;
        for (var shift = 0; ; shift += 7)
        {
            var b = data[position++];
            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }
    }

    public static byte[] Varint(ulong value)
    {
        var bytes = new List<byte>();
        while (value >= 0x80)
        {
            bytes.Add((byte)(value | 0x80));
            value >>= 7;
        }

        bytes.Add((byte)value);
        return [.. bytes];
    }

    public static byte[] Tag(int number, int wireType) => Varint((ulong)((number << 3) | wireType));

    public static byte[] LengthDelimited(int number, ReadOnlySpan<byte> value) =>
        [.. Tag(number, 2), .. Varint((ulong)value.Length), .. value];

    /// <summary>Replaces the bytes of one field (tag included) with <paramref name="replacement"/>.</summary>
    public static byte[] Replace(ReadOnlySpan<byte> message, Field field, ReadOnlySpan<byte> replacement) =>
        [.. message[..field.Start], .. replacement, .. message[field.End..]];

    /// <summary>Appends <paramref name="extra"/> inside the first top-level length-delimited field numbered <paramref name="number"/>.</summary>
    public static byte[] AppendInside(ReadOnlySpan<byte> message, int number, ReadOnlySpan<byte> extra)
    {
        var field = Fields(message).First(f => f.Number == number && f.WireType == 2);
        return Replace(message, field, LengthDelimited(number, [.. message[field.ValueStart..field.End], .. extra]));
    }
}
