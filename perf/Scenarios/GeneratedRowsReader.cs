using System.Collections;
using System.Data;
using System.Data.Common;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// A forward-only reader that generates the two-string-column scenario's rows on the fly, so a million rows can
/// be streamed without any of them being held in memory (the source side of the streaming benchmarks).
/// </summary>
public sealed class GeneratedRowsReader : DbDataReader
{
    private static readonly string[] ColumnNames = ["Code", "Description"];
    private readonly int rowCount;
    private readonly Random random;
    private int position = -1;
    private string code = "";
    private string description = "";
    private bool closed;

    /// <summary>Creates a reader over <paramref name="rowCount"/> rows generated from <paramref name="seed"/>.</summary>
    public GeneratedRowsReader(int rowCount, int seed = ScenarioCatalog.DefaultSeed)
    {
        this.rowCount = rowCount;
        random = new Random(seed);
    }

    /// <inheritdoc />
    public override int FieldCount => ColumnNames.Length;

    /// <inheritdoc />
    public override bool HasRows => rowCount > 0;

    /// <inheritdoc />
    public override bool IsClosed => closed;

    /// <inheritdoc />
    public override int RecordsAffected => -1;

    /// <inheritdoc />
    public override int Depth => 0;

    /// <inheritdoc />
    public override object this[int ordinal] => GetValue(ordinal);

    /// <inheritdoc />
    public override object this[string name] => GetValue(GetOrdinal(name));

    /// <inheritdoc />
    public override bool Read()
    {
        if (closed || position + 1 >= rowCount)
        {
            position = rowCount;
            return false;
        }

        position++;
        (code, description) = TwoStringColumnsScenario.Row(random, position);
        return true;
    }

    /// <inheritdoc />
    public override bool NextResult()
    {
        position = rowCount;
        return false;
    }

    /// <inheritdoc />
    public override void Close() => closed = true;

    /// <inheritdoc />
    public override string GetName(int ordinal) => ColumnNames[ordinal];

    /// <inheritdoc />
    public override int GetOrdinal(string name)
    {
        int ordinal = Array.FindIndex(ColumnNames, n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase));
        return ordinal >= 0 ? ordinal : throw new ArgumentException($"No column '{name}'.", nameof(name));
    }

    /// <inheritdoc />
    public override DataTable GetSchemaTable()
    {
        var schema = new DataTable("SchemaTable");
        schema.Columns.Add("ColumnName", typeof(string));
        schema.Columns.Add("ColumnOrdinal", typeof(int));
        schema.Columns.Add("DataType", typeof(Type));
        schema.Columns.Add("AllowDBNull", typeof(bool));
        for (int i = 0; i < ColumnNames.Length; i++)
        {
            schema.Rows.Add(ColumnNames[i], i, typeof(string), false);
        }

        return schema;
    }

    /// <inheritdoc />
    public override Type GetFieldType(int ordinal) => typeof(string);

    /// <inheritdoc />
    public override string GetDataTypeName(int ordinal) => "nvarchar";

    /// <inheritdoc />
    public override string GetString(int ordinal) => ordinal switch
    {
        0 => code,
        1 => description,
        _ => throw new ArgumentOutOfRangeException(nameof(ordinal)),
    };

    /// <inheritdoc />
    public override object GetValue(int ordinal) => GetString(ordinal);

    /// <inheritdoc />
    public override int GetValues(object[] values)
    {
        int count = Math.Min(values.Length, FieldCount);
        for (int i = 0; i < count; i++)
        {
            values[i] = GetString(i);
        }

        return count;
    }

    /// <inheritdoc />
    public override bool IsDBNull(int ordinal) => false;

    /// <inheritdoc />
    public override bool GetBoolean(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override byte GetByte(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length) => throw new InvalidCastException();

    /// <inheritdoc />
    public override char GetChar(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override long GetChars(int ordinal, long dataOffset, char[]? buffer, int bufferOffset, int length)
    {
        string value = GetString(ordinal);
        if (buffer is null)
        {
            return value.Length;
        }

        int count = (int)Math.Clamp(value.Length - dataOffset, 0, length);
        value.CopyTo((int)dataOffset, buffer, bufferOffset, count);
        return count;
    }

    /// <inheritdoc />
    public override DateTime GetDateTime(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override decimal GetDecimal(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override double GetDouble(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override float GetFloat(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override Guid GetGuid(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override short GetInt16(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override int GetInt32(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override long GetInt64(int ordinal) => throw new InvalidCastException();

    /// <inheritdoc />
    public override IEnumerator GetEnumerator() => new DbEnumerator(this);
}
