using System.Data.SqlTypes;
using System.Numerics;
using CsCheck;

namespace Surrogate.Tests.Generated;

/// <summary>Generators for every column type of the codec's closed table (plus a registered enum), edge values included.</summary>
internal static class ValueGens
{
    /// <summary>The enum column type the property tests register on both sides.</summary>
    public static readonly SurrogateOptions Options = SurrogateOptions.Default with
    {
        ExtraColumnTypes = [SurrogateColumnType.ForEnum<DayOfWeek>("day-of-week")],
    };

    public static readonly Type[] ColumnTypes =
    [
        typeof(bool), typeof(char), typeof(sbyte), typeof(byte), typeof(short), typeof(ushort), typeof(int), typeof(uint),
        typeof(long), typeof(ulong), typeof(float), typeof(double), typeof(decimal), typeof(DateTime), typeof(DateTimeOffset),
        typeof(TimeSpan), typeof(string), typeof(Guid), typeof(byte[]), typeof(BigInteger), typeof(Uri), typeof(DateOnly),
        typeof(TimeOnly), typeof(object), typeof(SqlBinary), typeof(SqlBoolean), typeof(SqlByte), typeof(SqlBytes),
        typeof(SqlChars), typeof(SqlDateTime), typeof(SqlDecimal), typeof(SqlDouble), typeof(SqlGuid), typeof(SqlInt16),
        typeof(SqlInt32), typeof(SqlInt64), typeof(SqlMoney), typeof(SqlSingle), typeof(SqlString), typeof(DayOfWeek),
    ];

    // Valid UTF-16 only (a lone surrogate cannot travel as UTF-8 and is refused by the writer, docs/wire-format.md):
    // control characters, NUL, Turkish and German letters, non-characters and a surrogate pair.
    private static readonly Gen<char> Char = Gen.Frequency(
        (4, Gen.Char['a', 'z']),
        (1, Gen.OneOf('\0', '\u0001', '\r', '\n', ' ', 'ı', 'İ', 'ß', '\uFFFE', '\uFFFF', 'I', 'i')),
        (1, Gen.Char['\u0080', '\uD7FF']));

    // DataSet refuses surrogates and TAB, LF and CR in char columns ("XML persistency does not support the value").
    private static readonly Gen<char> SingleChar = Char.Where(c => c is not ('\t' or '\n' or '\r'));

    private static readonly Gen<string> Text = Gen.Frequency(
        (6, Char.Array[0, 12].Select(c => new string(c))),
        (1, Gen.OneOf("", " ", "emoji \U0001F600 pair", "line1\r\nline2")));

    private static readonly Gen<DateTime> Date = Gen.Frequency(
        (6, Gen.Long[new DateTime(1900, 1, 1).Ticks, new DateTime(2100, 1, 1).Ticks]),
        (1, Gen.OneOf(DateTime.MinValue.Ticks + TimeSpan.TicksPerDay, DateTime.MaxValue.Ticks - TimeSpan.TicksPerDay)))
        .SelectMany(ticks => Gen.Enum<DateTimeKind>().Select(kind => new DateTime(ticks, kind)));

    private static readonly Gen<double> Double = Gen.Frequency(
        (4, Gen.Double),
        (1, Gen.OneOf(double.NaN, double.PositiveInfinity, double.NegativeInfinity, -0.0, double.Epsilon, double.MaxValue)));

    private static readonly Gen<decimal> Decimal = Gen.Frequency(
        (4, Gen.Long.SelectMany(l => Gen.Byte[0, 28].Select(scale => new decimal((int)l, (int)(l >> 32), 0, l < 0, scale)))),
        (1, Gen.OneOf(1.10m, 0.000m, decimal.MaxValue, decimal.MinValue)));

    private static readonly Gen<byte[]> Bytes = Gen.Byte.Array[0, 16];

    /// <summary>A non-null value of the column type.</summary>
    public static Gen<object> Of(Type type) => type switch
    {
        _ when type == typeof(bool) => Gen.Bool.Select(Box),
        _ when type == typeof(char) => SingleChar.Select(Box),
        _ when type == typeof(sbyte) => Gen.SByte.Select(Box),
        _ when type == typeof(byte) => Gen.Byte.Select(Box),
        _ when type == typeof(short) => Gen.Short.Select(Box),
        _ when type == typeof(ushort) => Gen.UShort.Select(Box),
        _ when type == typeof(int) => Gen.Int.Select(Box),
        _ when type == typeof(uint) => Gen.UInt.Select(Box),
        _ when type == typeof(long) => Gen.Long.Select(Box),
        _ when type == typeof(ulong) => Gen.ULong.Select(Box),
        _ when type == typeof(float) => Double.Select(d => (object)(float)d),
        _ when type == typeof(double) => Double.Select(Box),
        _ when type == typeof(decimal) => Decimal.Select(Box),
        _ when type == typeof(DateTime) => Date.Select(Box),
        _ when type == typeof(DateTimeOffset) => Date.SelectMany(d => Gen.Int[-840, 840].Select(m => (object)new DateTimeOffset(d.Ticks, TimeSpan.FromMinutes(m)))),
        _ when type == typeof(TimeSpan) => Gen.Long.Select(t => (object)TimeSpan.FromTicks(t)),
        _ when type == typeof(string) => Text.Select(Box),
        _ when type == typeof(Guid) => Gen.Guid.Select(Box),
        _ when type == typeof(byte[]) => Bytes.Select(Box),
        _ when type == typeof(BigInteger) => Gen.Long.SelectMany(a => Gen.Long.Select(b => (object)(new BigInteger(a) * b * b))),
        _ when type == typeof(Uri) => Gen.Int[0, 999].Select(i => (object)new Uri($"https://example.org/items/{i}?q=ı")),
        _ when type == typeof(DateOnly) => Date.Select(d => (object)DateOnly.FromDateTime(d)),
        _ when type == typeof(TimeOnly) => Date.Select(d => (object)TimeOnly.FromDateTime(d)),
        _ when type == typeof(object) => Gen.OneOf(Gen.Int.Select(Box), Text.Select(Box), Gen.Guid.Select(Box), Double.Select(Box), Date.Select(Box)),
        _ when type == typeof(SqlBinary) => Bytes.Select(b => (object)new SqlBinary(b)),
        _ when type == typeof(SqlBoolean) => Gen.Bool.Select(b => (object)new SqlBoolean(b)),
        _ when type == typeof(SqlByte) => Gen.Byte.Select(b => (object)new SqlByte(b)),
        _ when type == typeof(SqlBytes) => Bytes.Select(b => (object)new SqlBytes(b)),
        _ when type == typeof(SqlChars) => Text.Select(s => (object)new SqlChars(s.ToCharArray())),
        _ when type == typeof(SqlDateTime) => Gen.Long[SqlDateTime.MinValue.Value.Ticks, SqlDateTime.MaxValue.Value.Ticks].Select(t => (object)new SqlDateTime(new DateTime(t))),
        _ when type == typeof(SqlDecimal) => Decimal.Select(d => (object)new SqlDecimal(d)),
        _ when type == typeof(SqlDouble) => Gen.Long.Select(v => (object)new SqlDouble(v / 3.0)), // SqlDouble refuses NaN and infinities
        _ when type == typeof(SqlGuid) => Gen.Guid.Select(g => (object)new SqlGuid(g)),
        _ when type == typeof(SqlInt16) => Gen.Short.Select(v => (object)new SqlInt16(v)),
        _ when type == typeof(SqlInt32) => Gen.Int.Select(v => (object)new SqlInt32(v)),
        _ when type == typeof(SqlInt64) => Gen.Long.Select(v => (object)new SqlInt64(v)),
        _ when type == typeof(SqlMoney) => Gen.Long[-1_000_000_000_000, 1_000_000_000_000].Select(v => (object)new SqlMoney(v / 10_000m)),
        _ when type == typeof(SqlSingle) => Gen.Int.Select(v => (object)new SqlSingle(v / 7f)),
        _ when type == typeof(SqlString) => Text.SelectMany(s => Gen.OneOf(1033, 1055, 1031).Select(lcid => (object)new SqlString(s, lcid))),
        _ when type == typeof(DayOfWeek) => Gen.Enum<DayOfWeek>().Select(Box),
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, "no generator"),
    };

    /// <summary>A value, or DBNull when the column allows it.</summary>
    public static Gen<object> Cell(Type type, bool allowNull) =>
        allowNull ? Gen.Frequency((4, Of(type)), (1, Gen.Const((object)DBNull.Value))) : Of(type);

    public static Gen<string> Name(string prefix) => Gen.Frequency(
        (4, Gen.Int[0, 99].Select(i => prefix + i)),
        (1, Gen.OneOf(prefix + " space", prefix + "İı", prefix + "_x", prefix + "ÄÖ")));

    private static object Box<T>(T value)
        where T : notnull => value;
}
