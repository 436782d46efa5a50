using System.Numerics;

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

/// <summary>char and the integer types that fit in a long; a value out of the column type's range is refused on reading.</summary>
internal sealed class IntegerColumnCodec<T>(TypeTag tag) : ColumnCodec<T>(tag)
    where T : struct, IBinaryInteger<T>
{
    public override void Append(ColumnValues values, object value) => values.AddInt(long.CreateChecked((T)value));

    public override T Read(ColumnCursor cursor) => T.CreateChecked(cursor.NextInt());
}

// ulong travels as its two's-complement bit pattern reinterpreted as sint64.
internal sealed class UInt64ColumnCodec() : ColumnCodec<ulong>(TypeTag.UInt64)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(unchecked((long)(ulong)value));

    public override ulong Read(ColumnCursor cursor) => unchecked((ulong)cursor.NextInt());
}
