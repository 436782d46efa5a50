namespace Surrogate.Columns;

// Integral types travel as zigzag varints in the Ints stream; the block writer picks delta encoding when it pays.
internal sealed class BooleanColumnCodec() : ColumnCodec<bool>(TypeTag.Boolean)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((bool)value ? 1 : 0);

    public override bool Read(ColumnCursor cursor) => cursor.NextInt() switch
    {
        0 => false,
        1 => true,
        var other => Throw.Invalid<bool>($"A boolean holds {other}."),
    };
}

internal sealed class CharColumnCodec() : ColumnCodec<char>(TypeTag.Char)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((char)value);

    public override char Read(ColumnCursor cursor) => checked((char)cursor.NextInt());
}

internal sealed class SByteColumnCodec() : ColumnCodec<sbyte>(TypeTag.SByte)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((sbyte)value);

    public override sbyte Read(ColumnCursor cursor) => checked((sbyte)cursor.NextInt());
}

internal sealed class ByteColumnCodec() : ColumnCodec<byte>(TypeTag.Byte)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((byte)value);

    public override byte Read(ColumnCursor cursor) => checked((byte)cursor.NextInt());
}

internal sealed class Int16ColumnCodec() : ColumnCodec<short>(TypeTag.Int16)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((short)value);

    public override short Read(ColumnCursor cursor) => checked((short)cursor.NextInt());
}

internal sealed class UInt16ColumnCodec() : ColumnCodec<ushort>(TypeTag.UInt16)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((ushort)value);

    public override ushort Read(ColumnCursor cursor) => checked((ushort)cursor.NextInt());
}

internal sealed class Int32ColumnCodec() : ColumnCodec<int>(TypeTag.Int32)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((int)value);

    public override int Read(ColumnCursor cursor) => checked((int)cursor.NextInt());
}

internal sealed class UInt32ColumnCodec() : ColumnCodec<uint>(TypeTag.UInt32)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((uint)value);

    public override uint Read(ColumnCursor cursor) => checked((uint)cursor.NextInt());
}

internal sealed class Int64ColumnCodec() : ColumnCodec<long>(TypeTag.Int64)
{
    public override void Append(ColumnValues values, object value) => values.AddInt((long)value);

    public override long Read(ColumnCursor cursor) => cursor.NextInt();
}

// ulong travels as its two's-complement bit pattern reinterpreted as sint64.
internal sealed class UInt64ColumnCodec() : ColumnCodec<ulong>(TypeTag.UInt64)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(unchecked((long)(ulong)value));

    public override ulong Read(ColumnCursor cursor) => unchecked((ulong)cursor.NextInt());
}
