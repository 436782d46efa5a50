namespace Surrogate.Columns;

// DateTime: (ticks << 2 | kind) as one sint64, exact ticks and Kind whatever the column's DateTimeMode; a Local value
// keeps its wall clock (it is not re-based to the reader's time zone). Delta coding makes sorted dates cheap.
internal sealed class DateTimeColumnCodec() : ColumnCodec<DateTime>(TypeTag.DateTime)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(Pack((DateTime)value));

    public override DateTime Read(ColumnCursor cursor) => Unpack(cursor.NextInt());

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
internal sealed class DateTimeOffsetColumnCodec() : ColumnCodec<DateTimeOffset>(TypeTag.DateTimeOffset)
{
    public override void Append(ColumnValues values, object value)
    {
        var dto = (DateTimeOffset)value;
        values.AddInt(dto.Ticks);
        values.AddAux((long)dto.Offset.TotalMinutes);
    }

    public override DateTimeOffset Read(ColumnCursor cursor)
    {
        var ticks = cursor.NextInt();
        var minutes = cursor.NextAux();
        return new DateTimeOffset(ticks, TimeSpan.FromMinutes(minutes));
    }
}

internal sealed class TimeSpanColumnCodec() : ColumnCodec<TimeSpan>(TypeTag.TimeSpan)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((TimeSpan)value).Ticks);

    public override TimeSpan Read(ColumnCursor cursor) => new TimeSpan(cursor.NextInt());
}

internal sealed class DateOnlyColumnCodec() : ColumnCodec<DateOnly>(TypeTag.DateOnly)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((DateOnly)value).DayNumber);

    public override DateOnly Read(ColumnCursor cursor) => DateOnly.FromDayNumber(checked((int)cursor.NextInt()));
}

internal sealed class TimeOnlyColumnCodec() : ColumnCodec<TimeOnly>(TypeTag.TimeOnly)
{
    public override void Append(ColumnValues values, object value) => values.AddInt(((TimeOnly)value).Ticks);

    public override TimeOnly Read(ColumnCursor cursor) => new TimeOnly(cursor.NextInt());
}
