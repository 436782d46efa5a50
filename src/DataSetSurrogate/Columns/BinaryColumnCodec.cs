using System.Numerics;

namespace Surrogate.Columns;

// Variable-length byte values travel in the Blobs stream (protobuf bytes, one per non-null row).
internal sealed class ByteArrayColumnCodec() : ColumnCodec(TypeTag.ByteArray, typeof(byte[]))
{
    public override void Append(ColumnValues values, object value) => values.AddBlob((byte[])value);

    public override object Take(ColumnCursor cursor) => cursor.NextBlob();
}

// Two's-complement little-endian, as BigInteger.ToByteArray gives it.
internal sealed class BigIntegerColumnCodec() : ColumnCodec(TypeTag.BigInteger, typeof(BigInteger))
{
    public override void Append(ColumnValues values, object value) => values.AddBlob(((BigInteger)value).ToByteArray());

    public override object Take(ColumnCursor cursor) => new BigInteger(cursor.NextBlob());
}
