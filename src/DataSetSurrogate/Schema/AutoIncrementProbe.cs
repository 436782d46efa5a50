using System.Data;
using System.Globalization;
using System.Numerics;

namespace Surrogate.Schema;

/// <summary>
/// Finds the value the next NewRow would take for each AutoIncrement column without touching the source: the
/// runtime keeps the counter private, but <see cref="DataTable.Clone"/> copies it, so a row made on a throw-away clone
/// reveals it.
/// </summary>
internal static class AutoIncrementProbe
{
    public static long?[]? NextValues(DataTable table)
    {
        long?[]? next = null;
        DataRow? probe = null;
        foreach (DataColumn column in table.Columns)
        {
            if (!column.AutoIncrement)
            {
                continue;
            }

            probe ??= table.Clone().NewRow();
            next ??= new long?[table.Columns.Count];
            next[column.Ordinal] = probe[column.Ordinal] switch
            {
                BigInteger big => (long)big,
                DBNull => null,
                var value => Convert.ToInt64(value, CultureInfo.InvariantCulture),
            };
        }

        return next;
    }
}
