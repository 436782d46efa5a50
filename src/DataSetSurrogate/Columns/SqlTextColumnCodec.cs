using System.Data.SqlTypes;

namespace Surrogate.Columns;

// SqlString keeps its LCID and compare options (Aux: lcid << 32 | options).
internal sealed class SqlStringColumnCodec() : SqlColumnCodec(TypeTag.SqlString, typeof(SqlString), SqlString.Null)
{
    public override void Append(ColumnValues values, object value)
    {
        var s = (SqlString)value;
        values.AddString(s.Value);
        values.AddAux(((long)s.LCID << 32) | (uint)s.SqlCompareOptions);
    }

    public override object Take(ColumnCursor cursor)
    {
        var text = cursor.NextString();
        var meta = cursor.NextAux();
        return new SqlString(text, checked((int)(meta >> 32)), (SqlCompareOptions)(int)(meta & 0xFFFFFFFF));
    }
}

internal sealed class SqlCharsColumnCodec() : SqlColumnCodec(TypeTag.SqlChars, typeof(SqlChars), SqlChars.Null)
{
    public override void Append(ColumnValues values, object value) =>
        values.AddString(new string(((SqlChars)value).Value));

    public override object Take(ColumnCursor cursor) => new SqlChars(cursor.NextString().ToCharArray());
}

internal sealed class SqlBinaryColumnCodec() : SqlColumnCodec(TypeTag.SqlBinary, typeof(SqlBinary), SqlBinary.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddBlob(((SqlBinary)value).Value);

    public override object Take(ColumnCursor cursor) => new SqlBinary(cursor.NextBlob());
}

internal sealed class SqlBytesColumnCodec() : SqlColumnCodec(TypeTag.SqlBytes, typeof(SqlBytes), SqlBytes.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddBlob(((SqlBytes)value).Value);

    public override object Take(ColumnCursor cursor) => new SqlBytes(cursor.NextBlob());
}
