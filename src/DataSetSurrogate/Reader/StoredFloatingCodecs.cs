using Surrogate.Columns;

namespace Surrogate.Reader;

// The data reader's codecs for Double and Single columns. DataTable's Double and Single storage keep no negative zero
// (-0.0 set in any way reads back as 0.0), so a DataSet loaded from a payload holding -0.0 shows 0.0; the reader
// shows what that DataSet would. Object, SqlDouble and SqlSingle columns keep -0.0 in both, with the shared codecs.
internal sealed class StoredDoubleCodec : DoubleColumnCodec
{
    public static StoredDoubleCodec Instance { get; } = new();

    public override double Read(ColumnCursor cursor) => base.Read(cursor) is var value && value == 0 ? 0d : value;
}

internal sealed class StoredSingleCodec : SingleColumnCodec
{
    public static StoredSingleCodec Instance { get; } = new();

    public override float Read(ColumnCursor cursor) => base.Read(cursor) is var value && value == 0 ? 0f : value;
}
