using System.Data;
using System.Diagnostics;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// Times building a scenario's DataSet from plain arrays (schema cloned, rows loaded with LoadDataRow as
/// Unchanged, on a freshly collected heap): the work any deserializer must do at least once per call, so it floors
/// the surrogate's time.
/// </summary>
public static class BuildFloorMeter
{
    public static BuildFloor Measure(string scenario, DataSet source, double seconds, int minIterations)
    {
        var values = source.Tables.Cast<DataTable>()
            .Select(t => t.Rows.Cast<DataRow>().Select(r => r.ItemArray).ToArray())
            .ToArray();
        int rows = values.Sum(t => t.Length);

        Build(source, values);
        var times = new List<double>();
        var total = Stopwatch.StartNew();
        while (times.Count < minIterations || total.Elapsed.TotalSeconds < seconds)
        {
            // A floor is a lower bound: collections owed to earlier builds are not charged to this one.
            GC.Collect();
            GC.WaitForPendingFinalizers();
            long start = Stopwatch.GetTimestamp();
            GC.KeepAlive(Build(source, values));
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }

        times.Sort();
        return new BuildFloor(scenario, rows, times[times.Count / 2], times[0], times.Count);
    }

    private static DataSet Build(DataSet schema, object?[][][] values)
    {
        // The fastest public path: constraints off and non-null columns nullable while loading, then constraints on
        // (one validation) and AllowDBNull back (one scan per column), as the codec's loader does.
        DataSet copy = schema.Clone();
        copy.EnforceConstraints = false;
        DataColumn[] nonNull = [.. copy.Tables.Cast<DataTable>().SelectMany(t => t.Columns.Cast<DataColumn>()).Where(c => !c.AllowDBNull)];
        foreach (DataColumn column in nonNull)
        {
            column.AllowDBNull = true;
        }

        for (int t = 0; t < values.Length; t++)
        {
            DataTable table = copy.Tables[t];
            table.BeginLoadData();
            foreach (object?[] row in values[t])
            {
                table.LoadDataRow(row, fAcceptChanges: true);
            }

            table.EndLoadData();
        }

        copy.EnforceConstraints = schema.EnforceConstraints;
        foreach (DataColumn column in nonNull)
        {
            column.AllowDBNull = false;
        }

        return copy;
    }
}
