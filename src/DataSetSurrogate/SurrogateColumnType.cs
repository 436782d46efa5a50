namespace Surrogate;

/// <summary>
/// An extra column type the caller allows, keyed by a stable name of the caller's choosing. The key travels on the
/// wire; the type never does. Both sides must register the same key for the same type.
/// </summary>
public sealed class SurrogateColumnType
{
    private SurrogateColumnType(string key, Type clrType, Func<object, byte[]>? encode, Func<byte[], object>? decode)
    {
        ArgumentException.ThrowIfNullOrEmpty(key);
        Key = key;
        ClrType = clrType;
        Encode = encode;
        Decode = decode;
    }

    /// <summary>The stable key written to the payload in place of a type name.</summary>
    public string Key { get; }

    /// <summary>The column's CLR type.</summary>
    public Type ClrType { get; }

    /// <summary>True for an enum (values travel as integers); false for a blob type with its own codec.</summary>
    public bool IsEnum => Encode is null;

    internal Func<object, byte[]>? Encode { get; }

    internal Func<byte[], object>? Decode { get; }

    /// <summary>Allows an enum column type; its values travel as their underlying integers.</summary>
    /// <typeparam name="TEnum">The enum type.</typeparam>
    /// <param name="key">The stable key that stands for <typeparamref name="TEnum"/> on the wire.</param>
    /// <returns>The registration to put in <see cref="SurrogateOptions.ExtraColumnTypes"/>.</returns>
    public static SurrogateColumnType ForEnum<TEnum>(string key)
        where TEnum : struct, Enum => new(key, typeof(TEnum), null, null);

    /// <summary>Allows a column type encoded by caller-supplied delegates as bytes.</summary>
    /// <typeparam name="T">The column type.</typeparam>
    /// <param name="key">The stable key that stands for <typeparamref name="T"/> on the wire.</param>
    /// <param name="encode">Turns a non-null value into bytes.</param>
    /// <param name="decode">Turns bytes back into a value; it receives untrusted input.</param>
    /// <returns>The registration to put in <see cref="SurrogateOptions.ExtraColumnTypes"/>.</returns>
    public static SurrogateColumnType ForBlob<T>(string key, Func<T, byte[]> encode, Func<byte[], T> decode)
        where T : notnull
    {
        ArgumentNullException.ThrowIfNull(encode);
        ArgumentNullException.ThrowIfNull(decode);
        return new(key, typeof(T), value => encode((T)value), bytes => decode(bytes));
    }
}
