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
    internal int FixedLength;
    internal string[] StringBuffer = [];
    internal int StringCount;
    internal byte[][] BlobBuffer = [];
    internal int BlobCount;
    internal object[] ObjectBuffer = [];
    internal int ObjectCount;
    internal long[] TagBuffer = [];
    internal int TagCount;
    internal byte[] NullBitmap = [];
    internal bool HasNulls;

    /// <summary>Dictionary-coded strings as they arrive: the entries and one index per value.</summary>
    internal string[] DictionaryBuffer = [];
    internal int DictionaryCount;
    internal long[] IndexBuffer = [];
    internal int IndexCount;
    internal bool Delta;

    private Position _at;
    private ColumnCursor? _valueCursor;

    /// <summary>Reads the Value messages of an object column from older writers, one at a time.</summary>
    internal ColumnCursor ValueCursor => _valueCursor ??= new ColumnCursor();

    public void Reset()
    {
        // Only the used part holds references (the rest was cleared when it was last used, or never set).
        Array.Clear(StringBuffer, 0, StringCount);
        Array.Clear(BlobBuffer, 0, BlobCount);
        Array.Clear(ObjectBuffer, 0, ObjectCount);
        Array.Clear(DictionaryBuffer, 0, DictionaryCount);
        IntCount = AuxCount = StringCount = BlobCount = ObjectCount = DictionaryCount = IndexCount = TagCount = 0;
        _at = default;
        FixedLength = 0;
        HasNulls = false;
        Delta = false;
    }

    public bool IsNull(int row) => HasNulls && (NullBitmap[row >> 3] & (1 << (row & 7))) != 0;

    /// <summary>Where the next value of each stream is: saved before a value, it lets a reader come back to it.</summary>
    public Position At
    {
        get => _at;
        set => _at = value;
    }

    public long NextInt() => _at.Int < IntCount ? IntBuffer[_at.Int++] : Short<long>("integer");

    public long NextAux() => _at.Aux < AuxCount ? AuxBuffer[_at.Aux++] : Short<long>("auxiliary");

    public ReadOnlySpan<byte> NextFixed(int size)
    {
        if (FixedLength - _at.Fixed < size)
        {
            return Short<byte[]>("fixed-width");
        }

        var span = FixedBuffer.AsSpan(_at.Fixed, size);
        _at.Fixed += size;
        return span;
    }

    public string NextString() => _at.String < StringCount ? StringBuffer[_at.String++] : Short<string>("string");

    public byte[] NextBlob() => _at.Blob < BlobCount ? BlobBuffer[_at.Blob++] : Short<byte[]>("bytes");

    public object NextObject() => _at.Object < ObjectCount ? ObjectBuffer[_at.Object++] : Short<object>("value");

    public TypeTag NextTag() => _at.Tag < TagCount ? (TypeTag)TagBuffer[_at.Tag++] : Short<TypeTag>("value type");

    /// <summary>True when an object column's values are tagged and stored in the typed streams (the current format).</summary>
    public bool HasTags => TagCount > 0;

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

    /// <summary>A position in each stream.</summary>
    internal struct Position
    {
        public int Int;
        public int Aux;
        public int Fixed;
        public int String;
        public int Blob;
        public int Object;
        public int Tag;
    }
}
