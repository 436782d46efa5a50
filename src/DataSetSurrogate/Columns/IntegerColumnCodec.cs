namespace Surrogate.Columns;

// Integral types travel as zigzag varints in the Ints stream; the block writer picks delta encoding when it pays.
internal sealed class BooleanColumnCodec() : ColumnCodec(TypeTag.Boolean, typeof(bool))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((bool)value ? 1 : 0);

    public override object Take(ColumnCursor cursor) => cursor.NextInt() switch
    {
        0 => false,
        1 => true,
        var other => Throw.Invalid<object>($"A boolean holds {other}."),
    };
}

internal sealed class CharColumnCodec() : ColumnCodec(TypeTag.Char, typeof(char))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((char)value);

    public override object Take(ColumnCursor cursor) => checked((char)cursor.NextInt());
}

internal sealed class SByteColumnCodec() : ColumnCodec(TypeTag.SByte, typeof(sbyte))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((sbyte)value);

    public override object Take(ColumnCursor cursor) => checked((sbyte)cursor.NextInt());
}

internal sealed class ByteColumnCodec() : ColumnCodec(TypeTag.Byte, typeof(byte))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((byte)value);

    public override object Take(ColumnCursor cursor) => checked((byte)cursor.NextInt());
}

internal sealed class Int16ColumnCodec() : ColumnCodec(TypeTag.Int16, typeof(short))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((short)value);

    public override object Take(ColumnCursor cursor) => checked((short)cursor.NextInt());
}

internal sealed class UInt16ColumnCodec() : ColumnCodec(TypeTag.UInt16, typeof(ushort))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((ushort)value);

    public override object Take(ColumnCursor cursor) => checked((ushort)cursor.NextInt());
}

internal sealed class Int32ColumnCodec() : ColumnCodec(TypeTag.Int32, typeof(int))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((int)value);

    public override object Take(ColumnCursor cursor) => checked((int)cursor.NextInt());
}

internal sealed class UInt32ColumnCodec() : ColumnCodec(TypeTag.UInt32, typeof(uint))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((uint)value);

    public override object Take(ColumnCursor cursor) => checked((uint)cursor.NextInt());
}

internal sealed class Int64ColumnCodec() : ColumnCodec(TypeTag.Int64, typeof(long))
{
    public override void Append(ColumnValues values, object value) => values.AddInt((long)value);

    public override object Take(ColumnCursor cursor) => cursor.NextInt();
}

// ulong travels as its two's-complement bit pattern reinterpreted as sint64.
internal sealed class UInt64ColumnCodec() : ColumnCodec(TypeTag.UInt64, typeof(ulong))
{
    public override void Append(ColumnValues values, object value) => values.AddInt(unchecked((long)(ulong)value));

    public override object Take(ColumnCursor cursor) => unchecked((ulong)cursor.NextInt());
}
