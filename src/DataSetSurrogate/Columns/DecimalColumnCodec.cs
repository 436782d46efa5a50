using System.Buffers.Binary;

namespace Surrogate.Columns;

// decimal.GetBits order (lo, mid, hi, flags) as four little-endian int32: the scale is in flags, so 1.10 stays 1.10.
internal sealed class DecimalColumnCodec() : ColumnCodec<decimal>(TypeTag.Decimal)
{
    public override void Append(ColumnValues values, object value) => Write(values.AddFixed(16), (decimal)value);

    public override decimal Read(ColumnCursor cursor) => Read(cursor.NextFixed(16));

    internal static void Write(Span<byte> destination, decimal value)
    {
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        for (var i = 0; i < 4; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(destination[(i * 4)..], bits[i]);
        }
    }

    internal static decimal Read(ReadOnlySpan<byte> source)
    {
        Span<int> bits = stackalloc int[4];
        for (var i = 0; i < 4; i++)
        {
            bits[i] = BinaryPrimitives.ReadInt32LittleEndian(source[(i * 4)..]);
        }

        return new decimal(bits);
    }
}
