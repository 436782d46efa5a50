using System.Data;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// A scenario's values as plain typed column arrays, extracted once in setup. The build floor creates DataTables
/// from these, so it pays for boxing and DataTable insertion but not for decoding any payload.
/// </summary>
public sealed class ScenarioData
{
    private ScenarioData(DataSet schema, IReadOnlyList<TableData> tables)
    {
        Schema = schema;
        Tables = tables;
    }

    /// <summary>An empty clone of the source DataSet: tables, columns, constraints and relations, no rows.</summary>
    public DataSet Schema { get; }

    /// <summary>Per-table column arrays, in the DataSet's table order.</summary>
    public IReadOnlyList<TableData> Tables { get; }

    /// <summary>Total row count over all tables.</summary>
    public int RowCount => Tables.Sum(t => t.RowCount);

    /// <summary>Extracts every column of every table of <paramref name="dataSet"/>.</summary>
    public static ScenarioData Extract(DataSet dataSet)
    {
        var tables = new List<TableData>(dataSet.Tables.Count);
        foreach (DataTable table in dataSet.Tables)
        {
            var columns = new ColumnData[table.Columns.Count];
            for (int c = 0; c < columns.Length; c++)
            {
                columns[c] = ColumnData.Extract(table, table.Columns[c]);
            }

            tables.Add(new TableData(table.TableName, table.Rows.Count, columns));
        }

        return new ScenarioData(dataSet.Clone(), tables);
    }
}

/// <summary>One table's rows as column arrays.</summary>
/// <param name="Name">Table name.</param>
/// <param name="RowCount">Number of rows.</param>
/// <param name="Columns">Columns in ordinal order.</param>
public sealed record TableData(string Name, int RowCount, IReadOnlyList<ColumnData> Columns);

/// <summary>One column's values as a typed array plus a null mask.</summary>
public abstract class ColumnData
{
    /// <summary>Column name.</summary>
    public abstract string Name { get; }

    /// <summary>The column's element type.</summary>
    public abstract Type DataType { get; }

    /// <summary>The typed value array (<c>T[]</c>); entries under a set null bit are default.</summary>
    public abstract Array Values { get; }

    /// <summary>Null mask, or null when the column has no nulls.</summary>
    public abstract bool[]? Nulls { get; }

    /// <summary>The value at <paramref name="row"/>, boxed, or <see cref="DBNull.Value"/>.</summary>
    public abstract object GetBoxed(int row);

    internal static ColumnData Extract(DataTable table, DataColumn column)
    {
        var extract = typeof(ColumnData).GetMethod(nameof(ExtractTyped), System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!
            .MakeGenericMethod(column.DataType);
        return (ColumnData)extract.Invoke(null, [table, column])!;
    }

    private static ColumnData ExtractTyped<T>(DataTable table, DataColumn column)
    {
        var values = new T[table.Rows.Count];
        bool[]? nulls = null;
        for (int r = 0; r < values.Length; r++)
        {
            object value = table.Rows[r][column];
            if (value is DBNull)
            {
                (nulls ??= new bool[values.Length])[r] = true;
            }
            else
            {
                values[r] = (T)value;
            }
        }

        return new ColumnData<T>(column.ColumnName, values, nulls);
    }
}

/// <summary>A typed column array.</summary>
/// <typeparam name="T">Element type.</typeparam>
public sealed class ColumnData<T> : ColumnData
{
    private readonly T[] values;
    private readonly bool[]? nulls;

    internal ColumnData(string name, T[] values, bool[]? nulls)
    {
        Name = name;
        this.values = values;
        this.nulls = nulls;
    }

    /// <inheritdoc />
    public override string Name { get; }

    /// <inheritdoc />
    public override Type DataType => typeof(T);

    /// <inheritdoc />
    public override Array Values => values;

    /// <inheritdoc />
    public override bool[]? Nulls => nulls;

    /// <inheritdoc />
    public override object GetBoxed(int row) => nulls is not null && nulls[row] ? DBNull.Value : values[row]!;
}
