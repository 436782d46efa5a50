using System.Collections;
using System.Data;
using System.Data.Common;

namespace Surrogate.Tests;

/// <summary>A reader of generated rows (id, name, amount) that never holds more than the current row.</summary>
internal sealed class SyntheticReader(int rows) : DbDataReader
{
    private static readonly string[] Names = ["Id", "Name", "Amount"];
    private static readonly Type[] Types = [typeof(int), typeof(string), typeof(double)];
    private volatile int row = -1;

    /// <summary>How many rows the consumer has asked for so far (read from other threads).</summary>
    public int RowsRead => Math.Min(row + 1, rows);

    public override int FieldCount => 3;
    public override bool HasRows => rows > 0;
    public override bool IsClosed => false;
    public override int RecordsAffected => -1;
    public override int Depth => 0;
    public override object this[int ordinal] => GetValue(ordinal);
    public override object this[string name] => GetValue(GetOrdinal(name));
    public override bool Read() => ++row < rows;
    public override bool NextResult() => false;
    public override string GetName(int ordinal) => Names[ordinal];
    public override int GetOrdinal(string name) => Array.IndexOf(Names, name);
    public override Type GetFieldType(int ordinal) => Types[ordinal];
    public override string GetDataTypeName(int ordinal) => Types[ordinal].Name;
    public override object GetValue(int ordinal) => ordinal switch
    {
        0 => row,
        1 => (row % 7) switch { 0 => "alpha", 1 => "beta", 2 => "gamma", _ => "item " + (row % 1000) },
        _ => row * 0.5,
    };
    public override int GetValues(object[] values)
    {
        for (var i = 0; i < 3; i++)
        {
            values[i] = GetValue(i);
        }

        return 3;
    }
    public override bool IsDBNull(int ordinal) => false;
    public override int GetInt32(int ordinal) => (int)GetValue(ordinal);
    public override string GetString(int ordinal) => (string)GetValue(ordinal);
    public override double GetDouble(int ordinal) => (double)GetValue(ordinal);
    public override DataTable GetSchemaTable()
    {
        var schema = new DataTable();
        schema.Columns.Add(SchemaTableColumn.ColumnName, typeof(string));
        schema.Columns.Add(SchemaTableColumn.ColumnOrdinal, typeof(int));
        schema.Columns.Add(SchemaTableColumn.DataType, typeof(Type));
        schema.Columns.Add(SchemaTableColumn.AllowDBNull, typeof(bool));
        schema.Columns.Add(SchemaTableColumn.ColumnSize, typeof(int));
        for (var i = 0; i < 3; i++)
        {
            schema.Rows.Add(Names[i], i, Types[i], false, -1);
        }

        return schema;
    }
    public override bool GetBoolean(int ordinal) => throw new InvalidCastException();
    public override byte GetByte(int ordinal) => throw new InvalidCastException();
    public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length) => throw new InvalidCastException();
    public override char GetChar(int ordinal) => throw new InvalidCastException();
    public override long GetChars(int ordinal, long dataOffset, char[]? buffer, int bufferOffset, int length) => throw new InvalidCastException();
    public override DateTime GetDateTime(int ordinal) => throw new InvalidCastException();
    public override decimal GetDecimal(int ordinal) => throw new InvalidCastException();
    public override float GetFloat(int ordinal) => throw new InvalidCastException();
    public override Guid GetGuid(int ordinal) => throw new InvalidCastException();
    public override short GetInt16(int ordinal) => throw new InvalidCastException();
    public override long GetInt64(int ordinal) => throw new InvalidCastException();
    public override IEnumerator GetEnumerator() => new DbEnumerator(this);
}

/// <summary>Forwards every member to another reader; subclasses override what they change.</summary>
internal abstract class DbDataReaderWrapper(DbDataReader inner) : DbDataReader
{
    public override int FieldCount => inner.FieldCount;
    public override bool HasRows => inner.HasRows;
    public override bool IsClosed => inner.IsClosed;
    public override int RecordsAffected => inner.RecordsAffected;
    public override int Depth => inner.Depth;
    public override object this[int ordinal] => inner[ordinal];
    public override object this[string name] => inner[name];
    public override bool Read() => inner.Read();
    public override bool NextResult() => inner.NextResult();
    public override string GetName(int ordinal) => inner.GetName(ordinal);
    public override int GetOrdinal(string name) => inner.GetOrdinal(name);
    public override Type GetFieldType(int ordinal) => inner.GetFieldType(ordinal);
    public override string GetDataTypeName(int ordinal) => inner.GetDataTypeName(ordinal);
    public override object GetValue(int ordinal) => inner.GetValue(ordinal);
    public override int GetValues(object[] values) => inner.GetValues(values);
    public override bool IsDBNull(int ordinal) => inner.IsDBNull(ordinal);
    public override DataTable? GetSchemaTable() => inner.GetSchemaTable();
    public override bool GetBoolean(int ordinal) => inner.GetBoolean(ordinal);
    public override byte GetByte(int ordinal) => inner.GetByte(ordinal);
    public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length) => inner.GetBytes(ordinal, dataOffset, buffer, bufferOffset, length);
    public override char GetChar(int ordinal) => inner.GetChar(ordinal);
    public override long GetChars(int ordinal, long dataOffset, char[]? buffer, int bufferOffset, int length) => inner.GetChars(ordinal, dataOffset, buffer, bufferOffset, length);
    public override DateTime GetDateTime(int ordinal) => inner.GetDateTime(ordinal);
    public override decimal GetDecimal(int ordinal) => inner.GetDecimal(ordinal);
    public override double GetDouble(int ordinal) => inner.GetDouble(ordinal);
    public override float GetFloat(int ordinal) => inner.GetFloat(ordinal);
    public override Guid GetGuid(int ordinal) => inner.GetGuid(ordinal);
    public override short GetInt16(int ordinal) => inner.GetInt16(ordinal);
    public override int GetInt32(int ordinal) => inner.GetInt32(ordinal);
    public override long GetInt64(int ordinal) => inner.GetInt64(ordinal);
    public override string GetString(int ordinal) => inner.GetString(ordinal);
    public override IEnumerator GetEnumerator() => inner.GetEnumerator();
}
