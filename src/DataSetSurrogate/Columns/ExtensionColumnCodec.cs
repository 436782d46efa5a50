namespace Surrogate.Columns;

// Enum columns (registered by the caller, or declared by a typed target) travel as their underlying integers.
internal sealed class EnumColumnCodec(Type enumType, string? key) : ColumnCodec(TypeTag.Extension, enumType)
{
    public override string? ExtensionKey => key;

    private readonly bool _unsigned = Type.GetTypeCode(Enum.GetUnderlyingType(enumType)) is TypeCode.UInt64 or TypeCode.UInt32 or TypeCode.UInt16 or TypeCode.Byte;

    public override void Append(ColumnValues values, object value) =>
        values.AddInt(_unsigned ? unchecked((long)Convert.ToUInt64(value, null)) : Convert.ToInt64(value, null));

    public override object Take(ColumnCursor cursor)
    {
        var raw = cursor.NextInt();
        return _unsigned ? Enum.ToObject(ClrType, unchecked((ulong)raw)) : Enum.ToObject(ClrType, raw);
    }

    public override void Skip(ColumnCursor cursor) => cursor.NextInt();
}

// A caller-registered type with its own byte codec; the decode delegate sees untrusted bytes.
internal sealed class BlobExtensionColumnCodec(SurrogateColumnType registration) : ColumnCodec(TypeTag.Extension, registration.ClrType)
{
    public override string? ExtensionKey => registration.Key;

    public override void Append(ColumnValues values, object value) => values.AddBlob(registration.Encode!(value));

    public override object Take(ColumnCursor cursor) => registration.Decode!(cursor.NextBlob());

    public override void Skip(ColumnCursor cursor) => cursor.NextBlob();
}
