using System.Numerics;

namespace Surrogate.Columns;

// Variable-length byte values travel in the Blobs stream (protobuf bytes, one per non-null row).
internal sealed class ByteArrayColumnCodec() : ColumnCodec<byte[]>(TypeTag.ByteArray)
{
    public override void Append(ColumnValues values, object value) => values.AddBlob((byte[])value);

    public override byte[] Read(ColumnCursor cursor) => cursor.NextBlob();
}

// Two's-complement little-endian, as BigInteger.ToByteArray gives it.
internal sealed class BigIntegerColumnCodec() : ColumnCodec<BigInteger>(TypeTag.BigInteger)
{
    public override void Append(ColumnValues values, object value) => values.AddBlob(((BigInteger)value).ToByteArray());

    public override BigInteger Read(ColumnCursor cursor) => new BigInteger(cursor.NextBlob());

    public override void Skip(ColumnCursor cursor) => cursor.NextBlob();
}
