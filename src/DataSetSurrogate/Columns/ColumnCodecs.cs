using System.Collections.Frozen;

namespace Surrogate.Columns;

/// <summary>
/// The closed table from CLR type to codec and from wire tag to codec. Nothing outside it (and the caller's
/// <see cref="SurrogateOptions.ExtraColumnTypes"/>) is ever written or read; no type is ever looked up by name.
/// </summary>
internal static class ColumnCodecs
{
    private static readonly ColumnCodec[] All =
    [
        new BooleanColumnCodec(), new IntegerColumnCodec<char>(TypeTag.Char), new IntegerColumnCodec<sbyte>(TypeTag.SByte),
        new IntegerColumnCodec<byte>(TypeTag.Byte), new IntegerColumnCodec<short>(TypeTag.Int16),
        new IntegerColumnCodec<ushort>(TypeTag.UInt16), new IntegerColumnCodec<int>(TypeTag.Int32),
        new IntegerColumnCodec<uint>(TypeTag.UInt32), new IntegerColumnCodec<long>(TypeTag.Int64), new UInt64ColumnCodec(), new SingleColumnCodec(), new DoubleColumnCodec(),
        new DecimalColumnCodec(), new DateTimeColumnCodec(), new DateTimeOffsetColumnCodec(),
        new TimeSpanColumnCodec(), new StringColumnCodec(), new GuidColumnCodec(), new ByteArrayColumnCodec(),
        new BigIntegerColumnCodec(), new UriColumnCodec(), new DateOnlyColumnCodec(), new TimeOnlyColumnCodec(),
        new ObjectColumnCodec(), new SqlBinaryColumnCodec(), new SqlBooleanColumnCodec(), new SqlByteColumnCodec(),
        new SqlBytesColumnCodec(), new SqlCharsColumnCodec(), new SqlDateTimeColumnCodec(),
        new SqlDecimalColumnCodec(), new SqlDoubleColumnCodec(), new SqlGuidColumnCodec(),
        new SqlInt16ColumnCodec(), new SqlInt32ColumnCodec(), new SqlInt64ColumnCodec(), new SqlMoneyColumnCodec(),
        new SqlSingleColumnCodec(), new SqlStringColumnCodec(),
    ];

    private static readonly FrozenDictionary<Type, ColumnCodec> ByType = All.ToFrozenDictionary(c => c.ClrType);

    private static readonly FrozenDictionary<TypeTag, ColumnCodec> ByTag = All.ToFrozenDictionary(c => c.Tag);

    /// <summary>Every CLR type of the closed table.</summary>
    public static IEnumerable<Type> BuiltInTypes => ByType.Keys;

    /// <summary>The codec for a column's DataType: built in, or registered by the caller; null if refused.</summary>
    public static ColumnCodec? ForColumnType(Type type, SurrogateOptions options)
    {
        if (ByType.TryGetValue(type, out var codec))
        {
            return codec;
        }

        var extra = options.FindExtra(type);
        return extra is null ? null : ForExtension(extra);
    }

    public static ColumnCodec ForExtension(SurrogateColumnType extra) =>
        extra.IsEnum ? new EnumColumnCodec(extra.ClrType, extra.Key) : new BlobExtensionColumnCodec(extra);

    public static ColumnCodec? ForTag(TypeTag tag) => ByTag.GetValueOrDefault(tag);

    /// <summary>Codecs a tagged Value may use: every built-in type except object itself (no nesting).</summary>
    public static ColumnCodec? ForValueType(Type type) =>
        ByType.TryGetValue(type, out var codec) && codec.Tag != TypeTag.Object ? codec : null;

    public static ColumnCodec? ForValueTag(TypeTag tag) =>
        ByTag.TryGetValue(tag, out var codec) && codec.Tag != TypeTag.Object ? codec : null;

    /// <summary>Why a column type is refused, for the error message.</summary>
    public static string RefusalReason(Type type) =>
        type == typeof(Type) ? "Type-valued columns are refused: a type name on the wire could make the reader load code"
        : type.IsArray || (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(List<>)) ? "array and List<T> columns are not supported"
        : type.IsEnum ? "enum columns need a SurrogateColumnType.ForEnum registration in SurrogateOptions.ExtraColumnTypes"
        : "the type is not in the closed set of column types; register it in SurrogateOptions.ExtraColumnTypes";
}
