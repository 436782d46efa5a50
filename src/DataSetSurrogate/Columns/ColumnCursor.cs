namespace Surrogate.Columns;

/// <summary>
/// The read-side view of one ColumnData message: the decoded streams and a position in each. Every "next" call is
/// bounds-checked, so a payload whose streams are shorter than its row count fails cleanly. A cursor is reused from
/// block to block: its arrays only grow (by doubling, never beyond the block's row count), and a reset clears only
/// what the previous block used, so a block costs work in proportion to its own size.
/// </summary>
internal sealed class ColumnCursor
{
    internal long[] IntBuffer = [];
    internal long[] AuxBuffer = [];
    internal int IntCount;
    internal int AuxCount;
    internal byte[] FixedBuffer = [];
    internal string[] StringBuffer = [];
    internal int StringCount;
    internal byte[][] BlobBuffer = [];
    internal int BlobCount;
    internal object[] ObjectBuffer = [];
    internal int ObjectCount;
    internal byte[]? NullBitmap;

    /// <summary>Dictionary-coded strings as they arrive: the entries and one index per value.</summary>
    internal string[] DictionaryBuffer = [];
    internal int DictionaryCount;
    internal long[] IndexBuffer = [];
    internal int IndexCount;
    internal bool Delta;

    private int _intPos;
    private int _auxPos;
    private int _fixedPos;
    private int _stringPos;
    private int _blobPos;
    private int _objectPos;

    public void Reset()
    {
        // Only the used part holds references (the rest was cleared when it was last used, or never set).
        Array.Clear(StringBuffer, 0, StringCount);
        Array.Clear(BlobBuffer, 0, BlobCount);
        Array.Clear(ObjectBuffer, 0, ObjectCount);
        Array.Clear(DictionaryBuffer, 0, DictionaryCount);
        IntCount = AuxCount = StringCount = BlobCount = ObjectCount = DictionaryCount = IndexCount = 0;
        _intPos = _auxPos = _fixedPos = _stringPos = _blobPos = _objectPos = 0;
        FixedBuffer = [];
        NullBitmap = null;
        Delta = false;
    }

    public bool IsNull(int row) => NullBitmap is not null && (NullBitmap[row >> 3] & (1 << (row & 7))) != 0;

    public long NextInt() => _intPos < IntCount ? IntBuffer[_intPos++] : Short<long>("integer");

    public long NextAux() => _auxPos < AuxCount ? AuxBuffer[_auxPos++] : Short<long>("auxiliary");

    public ReadOnlySpan<byte> NextFixed(int size)
    {
        if (FixedBuffer.Length - _fixedPos < size)
        {
            return Short<byte[]>("fixed-width");
        }

        var span = FixedBuffer.AsSpan(_fixedPos, size);
        _fixedPos += size;
        return span;
    }

    public string NextString() => _stringPos < StringCount ? StringBuffer[_stringPos++] : Short<string>("string");

    public byte[] NextBlob() => _blobPos < BlobCount ? BlobBuffer[_blobPos++] : Short<byte[]>("bytes");

    public object NextObject() => _objectPos < ObjectCount ? ObjectBuffer[_objectPos++] : Short<object>("value");

    /// <summary>Appends to one of the streams: growth doubles, and a stream never holds more values than <paramref name="max"/>.</summary>
    internal static void Add<T>(ref T[] buffer, ref int count, T value, int max)
    {
        if (count >= max)
        {
            Throw.Invalid("A column holds more values than its block has rows.");
        }

        if (count == buffer.Length)
        {
            Array.Resize(ref buffer, Math.Min(Math.Max(16, buffer.Length * 2), max));
        }

        buffer[count++] = value;
    }

    private static T Short<T>(string stream) =>
        Throw.Invalid<T>($"The column's {stream} stream holds fewer values than its rows need.");
}
