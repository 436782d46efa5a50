using System.Globalization;
using Surrogate.Columns;

namespace Surrogate.Reader;

// The current row's values, decoded on demand from the block's streams. A typed getter reads the column's own type
// with no box; on another column it unboxes GetValue, as DataTableReader does (an object column's int reads with
// GetInt32, an int column's does not read with GetInt64). Every getter needs a current row: before the first Read and
// after Read returned false it throws InvalidOperationException.
internal sealed partial class SurrogateDataReader
{
    public override object this[int ordinal] => GetValue(ordinal);

    public override object this[string name] => GetValue(GetOrdinal(name));

    public override object GetValue(int ordinal)
    {
        var codec = Current(ordinal);
        if (codec is null || _block.Column(ordinal).IsNull(_row))
        {
            return DBNull.Value;
        }

        var cursor = _block.Column(ordinal);
        var resume = cursor.At;
        try
        {
            cursor.At = _positions[ordinal];
            return codec.Take(cursor);
        }
        catch (Exception ex) when (ShouldWrap(ex))
        {
            throw WrapValue(ex, ordinal);
        }
        finally
        {
            cursor.At = resume;
        }
    }

    public override int GetValues(object[] values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var count = Math.Min(values.Length, FieldCount);
        for (var i = 0; i < count; i++)
        {
            values[i] = GetValue(i);
        }

        return count;
    }

    public override bool IsDBNull(int ordinal) => Current(ordinal) is null || _block.Column(ordinal).IsNull(_row);

    public override T GetFieldValue<T>(int ordinal) => Typed<T>(ordinal);

    public override string GetName(int ordinal) => Table.Columns[ordinal].Name;

    public override int GetOrdinal(string name)
    {
        var columns = Table.Columns;
        for (var i = 0; i < columns.Count; i++)
        {
            if (string.Equals(columns[i].Name, name, StringComparison.Ordinal))
            {
                return i;
            }
        }

        for (var i = 0; i < columns.Count; i++)
        {
            if (string.Equals(columns[i].Name, name, StringComparison.OrdinalIgnoreCase))
            {
                return i;
            }
        }

        // IDataRecord documents IndexOutOfRangeException for an unknown name.
#pragma warning disable CA2201
        throw new IndexOutOfRangeException($"No column named '{name}'.");
#pragma warning restore CA2201
    }

    public override Type GetFieldType(int ordinal) => _codecs[ordinal]?.ClrType ?? SchemaTableBuilder.ExpressionColumnType(Table.Columns[ordinal]);

    public override string GetDataTypeName(int ordinal) => GetFieldType(ordinal).Name;

    public override bool GetBoolean(int ordinal) => Typed<bool>(ordinal);

    public override byte GetByte(int ordinal) => Typed<byte>(ordinal);

    public override char GetChar(int ordinal) => Typed<char>(ordinal);

    public override DateTime GetDateTime(int ordinal) => Typed<DateTime>(ordinal);

    public override decimal GetDecimal(int ordinal) => Typed<decimal>(ordinal);

    public override double GetDouble(int ordinal) => Typed<double>(ordinal);

    public override float GetFloat(int ordinal) => Typed<float>(ordinal);

    public override Guid GetGuid(int ordinal) => Typed<Guid>(ordinal);

    public override short GetInt16(int ordinal) => Typed<short>(ordinal);

    public override int GetInt32(int ordinal) => Typed<int>(ordinal);

    public override long GetInt64(int ordinal) => Typed<long>(ordinal);

    public override string GetString(int ordinal) => Typed<string>(ordinal);

    public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length)
    {
        var data = Typed<byte[]>(ordinal);
        if (buffer is null)
        {
            return data.Length;
        }

        var count = (int)Math.Max(0, Math.Min(length, data.Length - dataOffset));
        Array.Copy(data, dataOffset, buffer, bufferOffset, count);
        return count;
    }

    public override long GetChars(int ordinal, long dataOffset, char[]? buffer, int bufferOffset, int length)
    {
        var data = _codecs[ordinal] is ColumnCodec<string> ? Typed<string>(ordinal) : Convert.ToString(GetValue(ordinal), CultureInfo.InvariantCulture) ?? "";
        if (buffer is null)
        {
            return data.Length;
        }

        var count = (int)Math.Max(0, Math.Min(length, data.Length - dataOffset));
        data.CopyTo((int)dataOffset, buffer, bufferOffset, count);
        return count;
    }

    /// <summary>The column's codec (null for an expression column), once the reader is on a row.</summary>
    private ColumnCodec? Current(int ordinal)
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        if (!_onRow)
        {
            throw new InvalidOperationException("No current row: call Read first, and read values only while it returns true.");
        }

        return _codecs[ordinal];
    }

    private T Typed<T>(int ordinal)
    {
        if (Current(ordinal) is not ColumnCodec<T> codec)
        {
            return (T)GetValue(ordinal);
        }

        var cursor = _block.Column(ordinal);
        if (cursor.IsNull(_row))
        {
            throw new InvalidCastException($"Column '{GetName(ordinal)}' is null in this row; check IsDBNull first.");
        }

        var resume = cursor.At;
        try
        {
            cursor.At = _positions[ordinal];
            return codec.Read(cursor);
        }
        catch (Exception ex) when (ShouldWrap(ex))
        {
            throw WrapValue(ex, ordinal);
        }
        finally
        {
            cursor.At = resume;
        }
    }

    private DataSetSurrogateException WrapValue(Exception ex, int ordinal) =>
        DataSetSurrogateException.Wrap(ex, _table?.Name, GetName(ordinal), _blockIndex - 1);
}
