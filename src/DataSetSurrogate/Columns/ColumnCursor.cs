namespace Surrogate.Columns;

/// <summary>
/// The read-side view of one ColumnData message: the decoded streams and a position in each. Every "next" call is
/// bounds-checked, so a payload whose streams are shorter than its row count fails cleanly.
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

    private int _intPos;
    private int _auxPos;
    private int _fixedPos;
    private int _stringPos;
    private int _blobPos;
    private int _objectPos;

    public void Reset()
    {
        IntCount = AuxCount = StringCount = BlobCount = ObjectCount = 0;
        _intPos = _auxPos = _fixedPos = _stringPos = _blobPos = _objectPos = 0;
        FixedBuffer = [];
        NullBitmap = null;
        Array.Clear(StringBuffer);
        Array.Clear(BlobBuffer);
        Array.Clear(ObjectBuffer);
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

    private static T Short<T>(string stream) =>
        Throw.Invalid<T>($"The column's {stream} stream holds fewer values than its rows need.");
}
