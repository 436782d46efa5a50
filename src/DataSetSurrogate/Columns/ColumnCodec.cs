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

    /// <summary>Reads the next value, boxed (a DataRow and <c>GetValue</c> hold objects).</summary>
    public abstract object Take(ColumnCursor cursor);

    /// <summary>Moves past the next value without building it; the streams are bounds-checked as for <see cref="Take"/>.</summary>
    public abstract void Skip(ColumnCursor cursor);
}

/// <summary>A codec whose values have one CLR type, so a typed read (a data reader's GetInt32, say) needs no box.</summary>
internal abstract class ColumnCodec<T>(TypeTag tag) : ColumnCodec(tag, typeof(T))
{
    public abstract T Read(ColumnCursor cursor);

    // Every codec builds a value for a non-null cell.
    public sealed override object Take(ColumnCursor cursor) => Read(cursor)!;

    /// <summary>Reads and drops the value: free for value types; codecs whose values allocate skip their streams instead.</summary>
    public override void Skip(ColumnCursor cursor) => Read(cursor);
}

/// <summary>Base for SqlTypes codecs: a null is the type's own Null, and SqlTypes report nullness themselves.</summary>
internal abstract class SqlColumnCodec<T>(TypeTag tag, T nullValue) : ColumnCodec<T>(tag)
    where T : INullable
{
    public override object NullValue { get; } = nullValue;

    public override bool IsNull(object value) => value is DBNull || value is INullable { IsNull: true };
}
