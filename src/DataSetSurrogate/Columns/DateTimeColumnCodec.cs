namespace Surrogate.Columns;

// DateTime: (ticks << 2 | kind) as one sint64, exact ticks and Kind whatever the column's DateTimeMode; a Local value
// keeps its wall clock (it is not re-based to the reader's time zone). Delta coding makes sorted dates cheap.
internal sealed class DateTimeColumnCodec() : ColumnCodec(TypeTag.DateTime, typeof(DateTime))
{
    public override void Append(ColumnValues values, object value) => values.AddInt(Pack((DateTime)value));

    public override object Take(ColumnCursor cursor) => Unpack(cursor.NextInt());

    internal static long Pack(DateTime value) => unchecked((value.Ticks << 2) | (long)value.Kind);

    internal static DateTime Unpack(long packed)
    {
        var kind = (DateTimeKind)(packed & 3);
        if (kind > DateTimeKind.Local)
        {
            Throw.Invalid("A DateTime holds an unknown Kind.");
        }

        // Ticks use 62 bits, so ticks << 2 can set the sign bit: shift back unsigned.
        return new DateTime((long)((ulong)packed >> 2), kind);
    }
}

// DateTimeOffset: the clock ticks in Ints, the offset in minutes in Aux.
internal sealed class DateTimeOffsetColumnCodec() : ColumnCodec(TypeTag.DateTimeOffset, typeof(DateTimeOffset))
{
    public override void Append(ColumnValues values, object value)
    {
        var dto = (DateTimeOffset)value;
        values.AddInt(dto.Ticks);
        values.AddAux((long)dto.Offset.TotalMinutes);
    }

    public override object Take(ColumnCursor cursor)
    {
        var ticks = cursor.NextInt();
        var minutes = cursor.NextAux();
        return new DateTimeOffset(ticks, TimeSpan.FromMinutes(minutes));
    }
}

internal sealed class TimeSpanColumnCodec() : ColumnCodec(TypeTag.TimeSpan, typeof(TimeSpan))
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((TimeSpan)value).Ticks);

    public override object Take(ColumnCursor cursor) => new TimeSpan(cursor.NextInt());
}

internal sealed class DateOnlyColumnCodec() : ColumnCodec(TypeTag.DateOnly, typeof(DateOnly))
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((DateOnly)value).DayNumber);

    public override object Take(ColumnCursor cursor) => DateOnly.FromDayNumber(checked((int)cursor.NextInt()));
}

internal sealed class TimeOnlyColumnCodec() : ColumnCodec(TypeTag.TimeOnly, typeof(TimeOnly))
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((TimeOnly)value).Ticks);

    public override object Take(ColumnCursor cursor) => new TimeOnly(cursor.NextInt());
}
