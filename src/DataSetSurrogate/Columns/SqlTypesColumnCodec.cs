using System.Data.SqlTypes;

namespace Surrogate.Columns;

// SqlTypes reuse the primitive streams; a Null travels in the null bitmap and comes back as the type's own Null.
internal sealed class SqlBooleanColumnCodec() : SqlColumnCodec<SqlBoolean>(TypeTag.SqlBoolean, SqlBoolean.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((SqlBoolean)value).ByteValue);

    public override SqlBoolean Read(ColumnCursor cursor) => new SqlBoolean(checked((int)cursor.NextInt()) != 0);
}

internal sealed class SqlByteColumnCodec() : SqlColumnCodec<SqlByte>(TypeTag.SqlByte, SqlByte.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((SqlByte)value).Value);

    public override SqlByte Read(ColumnCursor cursor) => new SqlByte(checked((byte)cursor.NextInt()));
}

internal sealed class SqlInt16ColumnCodec() : SqlColumnCodec<SqlInt16>(TypeTag.SqlInt16, SqlInt16.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((SqlInt16)value).Value);

    public override SqlInt16 Read(ColumnCursor cursor) => new SqlInt16(checked((short)cursor.NextInt()));
}

internal sealed class SqlInt32ColumnCodec() : SqlColumnCodec<SqlInt32>(TypeTag.SqlInt32, SqlInt32.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((SqlInt32)value).Value);

    public override SqlInt32 Read(ColumnCursor cursor) => new SqlInt32(checked((int)cursor.NextInt()));
}

internal sealed class SqlInt64ColumnCodec() : SqlColumnCodec<SqlInt64>(TypeTag.SqlInt64, SqlInt64.Null)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((SqlInt64)value).Value);

    public override SqlInt64 Read(ColumnCursor cursor) => new SqlInt64(cursor.NextInt());
}

// SqlMoney's exact internal representation (value × 10,000 as int64).
internal sealed class SqlMoneyColumnCodec() : SqlColumnCodec<SqlMoney>(TypeTag.SqlMoney, SqlMoney.Null)
{
    public override void Append(ColumnValues values, object value) =>
        values.AddInt(((SqlMoney)value).GetTdsValue());

    public override SqlMoney Read(ColumnCursor cursor) => SqlMoney.FromTdsValue(cursor.NextInt());
}

internal sealed class SqlSingleColumnCodec() : SqlColumnCodec<SqlSingle>(TypeTag.SqlSingle, SqlSingle.Null)
{
    public override void Append(ColumnValues values, object value) =>
        System.Buffers.Binary.BinaryPrimitives.WriteSingleLittleEndian(values.AddFixed(4), ((SqlSingle)value).Value);

    public override SqlSingle Read(ColumnCursor cursor) =>
        new SqlSingle(System.Buffers.Binary.BinaryPrimitives.ReadSingleLittleEndian(cursor.NextFixed(4)));
}

internal sealed class SqlDoubleColumnCodec() : SqlColumnCodec<SqlDouble>(TypeTag.SqlDouble, SqlDouble.Null)
{
    public override void Append(ColumnValues values, object value) =>
        System.Buffers.Binary.BinaryPrimitives.WriteDoubleLittleEndian(values.AddFixed(8), ((SqlDouble)value).Value);

    public override SqlDouble Read(ColumnCursor cursor) =>
        new SqlDouble(System.Buffers.Binary.BinaryPrimitives.ReadDoubleLittleEndian(cursor.NextFixed(8)));
}

// SqlDecimal: the four data words (fixed, 16 bytes) plus precision, scale and sign packed in Aux.
internal sealed class SqlDecimalColumnCodec() : SqlColumnCodec<SqlDecimal>(TypeTag.SqlDecimal, SqlDecimal.Null)
{
    public override void Append(ColumnValues values, object value)
    {
        var d = (SqlDecimal)value;
        var data = d.Data;
        foreach (var word in data)
        {
            values.AddInt32Fixed(word);
        }

        values.AddAux((d.Precision << 16) | (d.Scale << 8) | (d.IsPositive ? 1 : 0));
    }

    public override SqlDecimal Read(ColumnCursor cursor)
    {
        var bytes = cursor.NextFixed(16);
        Span<int> data = stackalloc int[4];
        for (var i = 0; i < 4; i++)
        {
            data[i] = System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(bytes[(i * 4)..]);
        }

        var meta = cursor.NextAux();
        return new SqlDecimal(checked((byte)(meta >> 16)), (byte)((meta >> 8) & 0xFF), (meta & 1) != 0, data[0], data[1], data[2], data[3]);
    }
}

// SqlDateTime: day ticks in Ints, time ticks (1/300 s) in Aux.
internal sealed class SqlDateTimeColumnCodec() : SqlColumnCodec<SqlDateTime>(TypeTag.SqlDateTime, SqlDateTime.Null)
{
    public override void Append(ColumnValues values, object value)
    {
        var d = (SqlDateTime)value;
        values.AddInt(d.DayTicks);
        values.AddAux(d.TimeTicks);
    }

    public override SqlDateTime Read(ColumnCursor cursor) =>
        new SqlDateTime(checked((int)cursor.NextInt()), checked((int)cursor.NextAux()));
}

internal sealed class SqlGuidColumnCodec() : SqlColumnCodec<SqlGuid>(TypeTag.SqlGuid, SqlGuid.Null)
{
    public override void Append(ColumnValues values, object value) => ((SqlGuid)value).Value.TryWriteBytes(values.AddFixed(16));

    public override SqlGuid Read(ColumnCursor cursor) => new SqlGuid(new Guid(cursor.NextFixed(16)));
}
