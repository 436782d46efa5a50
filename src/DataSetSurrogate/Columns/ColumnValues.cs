using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Surrogate.Columns;

/// <summary>
/// The write-side accumulator for one column of one row block: the value streams a ColumnData message carries.
/// Reused across columns and blocks of one serialization (cleared, never reallocated unless it must grow).
/// </summary>
internal sealed class ColumnValues
{
    private long[] _ints = new long[64];
    private long[] _aux = new long[16];
    private byte[] _fixed = new byte[256];
    private string[] _strings = new string[64];
    private byte[][] _blobs = new byte[16][];
    private long[] _tags = new long[16];
    private long[] _dictionaryIndexes = [];
    private long _stringChars;
    private HashSet<string>? _probeSet;
    private Dictionary<string, int>? _dictionary;

    private int _intCount;
    private int _auxCount;
    private int _stringCount;
    private int _blobCount;
    private int _tagCount;

    public int IntCount => _intCount;

    public int AuxCount => _auxCount;

    public int FixedLength { get; private set; }

    public int StringCount => _stringCount;

    public int BlobCount => _blobCount;

    public int TagCount => _tagCount;

    public Span<long> Ints => _ints.AsSpan(0, IntCount);

    public ReadOnlySpan<long> Aux => _aux.AsSpan(0, AuxCount);

    public ReadOnlySpan<byte> Fixed => _fixed.AsSpan(0, FixedLength);

    public ReadOnlySpan<string> Strings => _strings.AsSpan(0, StringCount);

    public ReadOnlySpan<byte[]> Blobs => _blobs.AsSpan(0, BlobCount);

    /// <summary>An object column's type tag per value; its values are in the other streams.</summary>
    public ReadOnlySpan<long> Tags => _tags.AsSpan(0, TagCount);

    /// <summary>Roughly the bytes the streams take on the wire (it sizes a message's length prefix; a miss costs a move).</summary>
    public int EstimatedBytes => (int)Math.Min(int.MaxValue, _stringChars + (2L * StringCount) + (2L * IntCount) + (2L * AuxCount) + FixedLength + TagCount);

    /// <summary>Scratch for the dictionary-coding decision, reused across blocks.</summary>
    public HashSet<string> ProbeSet => _probeSet ??= new(StringComparer.Ordinal);

    /// <summary>Scratch for dictionary coding: each distinct string's index, in first-seen order.</summary>
    public Dictionary<string, int> Dictionary => _dictionary ??= new(StringComparer.Ordinal);

    /// <summary>What the arrays and tables hold on to, in bytes (references and entries counted at 8 and 24 bytes).</summary>
    public long RetainedBytes =>
        (8L * (_ints.Length + _aux.Length + _strings.Length + _blobs.Length + _tags.Length + _dictionaryIndexes.Length)) + _fixed.Length
        + (24L * ((_probeSet?.EnsureCapacity(0) ?? 0) + (_dictionary?.EnsureCapacity(0) ?? 0)));

    public Span<long> DictionaryIndexes(int count)
    {
        if (_dictionaryIndexes.Length < count)
        {
            _dictionaryIndexes = new long[count];
        }

        return _dictionaryIndexes.AsSpan(0, count);
    }

    public void Clear()
    {
        _intCount = _auxCount = FixedLength = _tagCount = 0;
        _stringChars = 0;
        Array.Clear(_strings, 0, _stringCount);
        Array.Clear(_blobs, 0, _blobCount);
        _stringCount = _blobCount = 0;
        // Dropping the strings, not the tables: a cached accumulator must not keep a payload's values alive.
        _probeSet?.Clear();
        _dictionary?.Clear();
    }

    public void AddInt(long value) => Append(ref _ints, ref _intCount, value);

    public void AddAux(long value) => Append(ref _aux, ref _auxCount, value);

    public Span<byte> AddFixed(int size)
    {
        if (_fixed.Length - FixedLength < size)
        {
            Array.Resize(ref _fixed, Math.Max(_fixed.Length * 2, FixedLength + size));
        }

        var span = _fixed.AsSpan(FixedLength, size);
        FixedLength += size;
        return span;
    }

    public void AddInt32Fixed(int value) => BinaryPrimitives.WriteInt32LittleEndian(AddFixed(4), value);

    public void AddString(string value)
    {
        Append(ref _strings, ref _stringCount, value);
        _stringChars += value.Length;
    }

    public void AddBlob(byte[] value) => Append(ref _blobs, ref _blobCount, value);

    public void AddTag(TypeTag tag) => Append(ref _tags, ref _tagCount, (long)tag);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Append<T>(ref T[] values, ref int count, T value)
    {
        if (count == values.Length)
        {
            Array.Resize(ref values, values.Length * 2);
        }

        values[count++] = value;
    }
}
