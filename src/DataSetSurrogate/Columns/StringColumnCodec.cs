namespace Surrogate.Columns;

// Strings travel as protobuf strings (UTF-8), plain or dictionary-coded per block. A lone surrogate has no UTF-8 form:
// the writer refuses it (WireWriter.String) rather than silently replacing it.
internal sealed class StringColumnCodec() : ColumnCodec<string>(TypeTag.String)
{
    public override void Append(ColumnValues values, object value) => values.AddString((string)value);

    public override string Read(ColumnCursor cursor) => cursor.NextString();
}

// Uri keeps its original string and is rebuilt as relative-or-absolute, as the source had it.
internal sealed class UriColumnCodec() : ColumnCodec<Uri>(TypeTag.Uri)
{
    public override void Append(ColumnValues values, object value) => values.AddString(((Uri)value).OriginalString);

    public override Uri Read(ColumnCursor cursor) => new Uri(cursor.NextString(), UriKind.RelativeOrAbsolute);

    public override void Skip(ColumnCursor cursor) => cursor.NextString();
}
