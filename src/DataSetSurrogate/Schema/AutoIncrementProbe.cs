using System.Data;
using System.Data.SqlTypes;
using System.Numerics;

namespace Surrogate.Schema;

/// <summary>
/// Finds the value the next NewRow would take for each AutoIncrement column without touching the source: the
/// runtime keeps the counter private, but cloning copies it, so a row made on a throw-away clone reveals it. Tables
/// of a DataSet are probed on a clone of the whole DataSet (cloned once per payload). The clone's AutoIncrement
/// columns are retyped to Int64 (BigInteger stays), so the row shows the counter as DataTable holds it (an Int64, or
/// a BigInteger) even where it has left the column's own range, e.g. an Int32 key whose last row took
/// int.MaxValue: NewRow on the source itself fails there, and the receiver restores exactly that state. A table that
/// cannot be cloned is refused: sending it without its counter would hand the receiver different keys for its next rows.
/// </summary>
internal sealed class AutoIncrementProbe
{
    private DataSet? _dataSetClone;

    public long?[]? NextValues(DataTable table)
    {
        var autoIncrement = FirstAutoIncrement(table);
        if (autoIncrement is null)
        {
            return null;
        }

        DataRow probe;
        try
        {
            probe = Clone(table).NewRow();
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Anything the table's own Clone or NewRow throws: the counter cannot be read, so nothing is written.
            throw new DataSetSurrogateException(
                $"The next AutoIncrement value cannot be read because the table cannot be cloned ({ex.GetType().Name}: {ex.Message}); it is refused rather than sent without its counter.",
                table.TableName,
                autoIncrement.ColumnName,
                null,
                ex);
        }

        var next = new long?[table.Columns.Count];
        foreach (DataColumn column in table.Columns)
        {
            if (column.AutoIncrement)
            {
                var counter = probe[column.Ordinal] switch
                {
                    long value => value,
                    BigInteger big when big >= long.MinValue && big <= long.MaxValue => (long)big,
                    // Only explicit values loaded into a BigInteger column move its counter past Int64.
                    BigInteger big => throw new DataSetSurrogateException(
                        $"The next AutoIncrement value ({big}) is outside the Int64 range the payload carries; it is refused rather than sent without its counter.",
                        table.TableName,
                        column.ColumnName,
                        null),
                    _ => (long?)null, // DBNull: the column has no counter to carry
                };
                RefuseWhatDataTableCannotLoad(table, column, counter);
                next[column.Ordinal] = counter;
            }
        }

        return next;
    }

    /// <summary>
    /// DataTable refuses every explicit value in an AutoIncrement column of SqlInt16, SqlInt32, SqlInt64 or SqlDecimal
    /// (its counter cannot convert the SqlTypes value to Int64: Rows.Add, LoadDataRow and the codec's loader all throw
    /// DataException), and moving such a counter takes a row holding a value. Such a table with a value in that column,
    /// or with its counter moved past its seed, cannot be rebuilt by any receiver, so it is refused here, with the reason.
    /// </summary>
    private static void RefuseWhatDataTableCannotLoad(DataTable table, DataColumn column, long? counter)
    {
        var type = column.DataType;
        if (type != typeof(SqlInt16) && type != typeof(SqlInt32) && type != typeof(SqlInt64) && type != typeof(SqlDecimal))
        {
            return;
        }

        var rows = table.Rows;
        var holdsValue = counter is long value && value != column.AutoIncrementSeed;
        for (var i = 0; i < rows.Count && !holdsValue; i++)
        {
            var row = rows[i];
            holdsValue = (row.HasVersion(DataRowVersion.Current) && !row.IsNull(column, DataRowVersion.Current))
                || (row.HasVersion(DataRowVersion.Original) && !row.IsNull(column, DataRowVersion.Original));
        }

        if (holdsValue)
        {
            throw new DataSetSurrogateException(
                $"The AutoIncrement column of type {type.Name} holds a value or a counter past its seed, which DataTable cannot load: it refuses any explicit value in an AutoIncrement column of this type (its counter cannot convert {type.Name} to Int64), so no receiver could rebuild the table. Use an Int32, Int64, Decimal or BigInteger column for AutoIncrement keys.",
                table.TableName,
                column.ColumnName,
                null);
        }
    }

    private DataTable Clone(DataTable table)
    {
        if (table.DataSet is not { } dataSet)
        {
            var clone = table.Clone();
            Widen([clone]);
            return clone;
        }

        if (_dataSetClone is null)
        {
            var dataSetClone = dataSet.Clone();
            // Expressions, relations and constraints tie a column's type to other columns; none of them moves the counter.
            var tables = dataSetClone.Tables.Cast<DataTable>().ToList();
            foreach (var clone in tables)
            {
                foreach (DataColumn column in clone.Columns)
                {
                    column.Expression = string.Empty;
                }
            }

            dataSetClone.Relations.Clear();
            foreach (var clone in tables)
            {
                foreach (var foreignKey in clone.Constraints.OfType<ForeignKeyConstraint>().ToList())
                {
                    clone.Constraints.Remove(foreignKey);
                }
            }

            Widen(tables);
            _dataSetClone = dataSetClone;
        }

        return _dataSetClone.Tables[table.TableName, table.Namespace]!;
    }

    private static void Widen(IEnumerable<DataTable> tables)
    {
        foreach (var table in tables)
        {
            table.Constraints.Clear();
            foreach (DataColumn column in table.Columns)
            {
                if (column.AutoIncrement && column.DataType != typeof(BigInteger))
                {
                    column.DataType = typeof(long);
                }
            }
        }
    }

    private static DataColumn? FirstAutoIncrement(DataTable table)
    {
        for (var i = 0; i < table.Columns.Count; i++)
        {
            var column = table.Columns[i];
            if (column.AutoIncrement)
            {
                return column;
            }
        }

        return null;
    }
}
