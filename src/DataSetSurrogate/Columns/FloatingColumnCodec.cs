using System.Buffers.Binary;

namespace Surrogate.Columns;

// IEEE bits as fixed-width little-endian: NaN payloads, infinities and -0.0 survive bit for bit.
internal class SingleColumnCodec() : ColumnCodec<float>(TypeTag.Single)
{
    public override void Append(ColumnValues values, object value) =>
        BinaryPrimitives.WriteSingleLittleEndian(values.AddFixed(4), (float)value);

    public override float Read(ColumnCursor cursor) => BinaryPrimitives.ReadSingleLittleEndian(cursor.NextFixed(4));
}

internal class DoubleColumnCodec() : ColumnCodec<double>(TypeTag.Double)
{
    public override void Append(ColumnValues values, object value) =>
        BinaryPrimitives.WriteDoubleLittleEndian(values.AddFixed(8), (double)value);

    public override double Read(ColumnCursor cursor) => BinaryPrimitives.ReadDoubleLittleEndian(cursor.NextFixed(8));
}
