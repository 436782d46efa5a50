using System.Data;
using System.Globalization;
using System.Numerics;

namespace Surrogate.Schema;

/// <summary>
/// Finds the value the next NewRow would take for each AutoIncrement column without touching the source: the
/// runtime keeps the counter private, but cloning copies it, so a row made on a throw-away clone reveals it. Tables
/// of a DataSet are probed on a clone of the whole DataSet (cloned once per payload), so expressions over relations
/// still bind. A table that cannot be cloned is refused: sending it without its counter would hand the receiver
/// different keys for its next rows.
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
            var dataSet = table.DataSet;
            var clone = dataSet is null ? table.Clone() : (_dataSetClone ??= dataSet.Clone()).Tables[table.TableName, table.Namespace]!;
            probe = clone.NewRow();
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
                next[column.Ordinal] = probe[column.Ordinal] switch
                {
                    BigInteger big => (long)big,
                    DBNull => null,
                    var value => Convert.ToInt64(value, CultureInfo.InvariantCulture),
                };
            }
        }

        return next;
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
