namespace Surrogate.Columns;

// 16 bytes in Guid.ToByteArray order (little-endian first three groups), fixed width.
internal sealed class GuidColumnCodec() : ColumnCodec<Guid>(TypeTag.Guid)
{
    public override void Append(ColumnValues values, object value) => ((Guid)value).TryWriteBytes(values.AddFixed(16));

    public override Guid Read(ColumnCursor cursor) => new Guid(cursor.NextFixed(16));
}
