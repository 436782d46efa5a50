using System.Data;
using System.Globalization;
using System.Numerics;

namespace Surrogate.Schema;

/// <summary>
/// Finds the value the next NewRow would take for each AutoIncrement column without touching the source: the
/// runtime keeps the counter private, but cloning copies it, so a row made on a throw-away clone reveals it. Tables
/// of a DataSet are probed on a clone of the whole DataSet (cloned once per payload), so expressions over relations
/// still bind.
/// </summary>
internal sealed class AutoIncrementProbe
{
    private DataSet? _dataSetClone;

    public long?[]? NextValues(DataTable table)
    {
        if (!HasAutoIncrement(table))
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
        catch (Exception ex) when (ex is DataException or InvalidOperationException or ArgumentException)
        {
            // A schema the runtime cannot clone: the reader's counter then follows the loaded values.
            return null;
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

    private static bool HasAutoIncrement(DataTable table)
    {
        foreach (DataColumn column in table.Columns)
        {
            if (column.AutoIncrement)
            {
                return true;
            }
        }

        return false;
    }
}
