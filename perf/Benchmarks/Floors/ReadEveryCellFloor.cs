using System.Data;

namespace Surrogate.Perf.Benchmarks.Floors;

/// <summary>
/// Serialize floor: visit every cell of every row through the public indexer, the least any DataSet serializer
/// must do before encoding anything.
/// </summary>
public static class ReadEveryCellFloor
{
    /// <summary>Reads every cell; returns the non-null count so the work cannot be elided.</summary>
    public static int Read(DataSet dataSet)
    {
        int nonNull = 0;
        foreach (DataTable table in dataSet.Tables)
        {
            var columns = table.Columns;
            int columnCount = columns.Count;
            foreach (DataRow row in table.Rows)
            {
                for (int c = 0; c < columnCount; c++)
                {
                    if (row[c] is not DBNull)
                    {
                        nonNull++;
                    }
                }
            }
        }

        return nonNull;
    }
}
