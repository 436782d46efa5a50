using System.Data.SqlTypes;

namespace Surrogate.Columns;

/// <summary>
/// Turns the non-null values of one column type into the streams of a ColumnData message and back. One codec per
/// type; families share a file. Nulls never reach a codec: they travel in the block's null bitmap.
/// </summary>
internal abstract class ColumnCodec(TypeTag tag, Type clrType)
{
    public TypeTag Tag { get; } = tag;

    public Type ClrType { get; } = clrType;

    /// <summary>What a null cell holds on this column type (<see cref="DBNull"/>, or an SqlType's Null).</summary>
    public virtual object NullValue => DBNull.Value;

    public virtual bool IsNull(object value) => value is DBNull;

    /// <summary>The caller's key for an extension type (enum or blob codec); null for built-in types.</summary>
    public virtual string? ExtensionKey => null;

    public abstract void Append(ColumnValues values, object value);

    public abstract object Take(ColumnCursor cursor);
}

/// <summary>Base for SqlTypes codecs: a null is the type's own Null, and SqlTypes report nullness themselves.</summary>
internal abstract class SqlColumnCodec(TypeTag tag, Type clrType, object nullValue) : ColumnCodec(tag, clrType)
{
    public override object NullValue { get; } = nullValue;

    public override bool IsNull(object value) => value is DBNull || value is INullable { IsNull: true };
}
