using System.Globalization;

namespace Surrogate.Reader;

// Typed getters over the current row's decoded values.
internal sealed partial class SurrogateDataReader
{
    public override object this[int ordinal] => GetValue(ordinal);

    public override object this[string name] => GetValue(GetOrdinal(name));

    public override object GetValue(int ordinal)
    {
        if (_row < 0 || !_blockLoaded && !_readAny)
        {
            throw new InvalidOperationException("No current row: call Read first.");
        }

        return _values[ordinal];
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

    public override bool IsDBNull(int ordinal) => GetValue(ordinal) is DBNull;

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

    public override bool GetBoolean(int ordinal) => (bool)GetValue(ordinal);

    public override byte GetByte(int ordinal) => (byte)GetValue(ordinal);

    public override char GetChar(int ordinal) => (char)GetValue(ordinal);

    public override DateTime GetDateTime(int ordinal) => (DateTime)GetValue(ordinal);

    public override decimal GetDecimal(int ordinal) => (decimal)GetValue(ordinal);

    public override double GetDouble(int ordinal) => (double)GetValue(ordinal);

    public override float GetFloat(int ordinal) => (float)GetValue(ordinal);

    public override Guid GetGuid(int ordinal) => (Guid)GetValue(ordinal);

    public override short GetInt16(int ordinal) => (short)GetValue(ordinal);

    public override int GetInt32(int ordinal) => (int)GetValue(ordinal);

    public override long GetInt64(int ordinal) => (long)GetValue(ordinal);

    public override string GetString(int ordinal) => (string)GetValue(ordinal);

    public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length)
    {
        var data = (byte[])GetValue(ordinal);
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
        var value = GetValue(ordinal);
        var data = value as string ?? Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
        if (buffer is null)
        {
            return data.Length;
        }

        var count = (int)Math.Max(0, Math.Min(length, data.Length - dataOffset));
        data.CopyTo((int)dataOffset, buffer, bufferOffset, count);
        return count;
    }
}
