using System.Data.SqlTypes;

namespace Surrogate.Columns;

// SqlString keeps its LCID and compare options (Aux: lcid << 32 | options).
internal sealed class SqlStringColumnCodec() : SqlColumnCodec<SqlString>(TypeTag.SqlString, SqlString.Null)
{
    public override void Append(ColumnValues values, object value)
    {
        var s = (SqlString)value;
        values.AddString(s.Value);
        values.AddAux(((long)s.LCID << 32) | (uint)s.SqlCompareOptions);
    }

    public override SqlString Read(ColumnCursor cursor)
    {
        var text = cursor.NextString();
        var meta = cursor.NextAux();
        return new SqlString(text, checked((int)(meta >> 32)), (SqlCompareOptions)(int)(meta & 0xFFFFFFFF));
    }
}

internal sealed class SqlCharsColumnCodec() : SqlColumnCodec<SqlChars>(TypeTag.SqlChars, SqlChars.Null)
{
    public override void Append(ColumnValues values, object value) =>
        values.AddString(new string(((SqlChars)value).Value));

    public override SqlChars Read(ColumnCursor cursor) => new SqlChars(cursor.NextString().ToCharArray());

    public override void Skip(ColumnCursor cursor) => cursor.NextString();
}

internal sealed class SqlBinaryColumnCodec() : SqlColumnCodec<SqlBinary>(TypeTag.SqlBinary, SqlBinary.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddBlob(((SqlBinary)value).Value);

    public override SqlBinary Read(ColumnCursor cursor) => new SqlBinary(cursor.NextBlob());

    public override void Skip(ColumnCursor cursor) => cursor.NextBlob();
}

internal sealed class SqlBytesColumnCodec() : SqlColumnCodec<SqlBytes>(TypeTag.SqlBytes, SqlBytes.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddBlob(((SqlBytes)value).Value);

    public override SqlBytes Read(ColumnCursor cursor) => new SqlBytes(cursor.NextBlob());

    public override void Skip(ColumnCursor cursor) => cursor.NextBlob();
}
