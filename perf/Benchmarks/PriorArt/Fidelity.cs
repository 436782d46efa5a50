// Compiled only with -p:WithProtobufNetData=true, which adds the protobuf-net-data package (RESULTS.md, "Prior art").
using System.Data;
using Surrogate.Perf.Benchmarks.Codecs;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.PriorArt;

/// <summary>
/// What a codec's round trip keeps of a scenario: names, schema, cell values, and change tracking after one edit,
/// one delete and one insert in the first table. Printed by <see cref="PriorArtBenchmarks"/>' setup.
/// </summary>
public static class Fidelity
{
    /// <summary>One line per codec: what differs from the source after a round trip ("same" if nothing).</summary>
    public static IEnumerable<string> Report(string scenario, params IDataSetCodec[] codecs)
    {
        foreach (var codec in codecs)
        {
            var pristine = ScenarioCatalog.Create(scenario);
            var edited = ScenarioCatalog.Create(scenario);
            string edits = Edit(edited.Tables[0]);
            var losses = Schema(pristine, codec.Deserialize(codec.Serialize(pristine)))
                .Concat(Changes(edited, codec.Deserialize(codec.Serialize(edited)))).ToList();
            yield return $"[fidelity] {scenario} {codec.Name} ({edits}): {(losses.Count == 0 ? "same" : string.Join("; ", losses))}";
        }
    }

    private static IEnumerable<string> Schema(DataSet expected, DataSet actual)
    {
        if (expected.DataSetName != actual.DataSetName)
        {
            yield return $"DataSet name '{expected.DataSetName}' -> '{actual.DataSetName}'";
        }

        if (expected.Relations.Count != actual.Relations.Count)
        {
            yield return $"relations {expected.Relations.Count} -> {actual.Relations.Count}";
        }

        var pairs = expected.Tables.Cast<DataTable>().Zip(actual.Tables.Cast<DataTable>()).ToList();
        int keys = pairs.Count(p => p.First.PrimaryKey.Length > 0), keptKeys = pairs.Count(p => p.First.PrimaryKey.Length > 0 && p.Second.PrimaryKey.Length > 0);
        if (keys != keptKeys)
        {
            yield return $"primary keys {keys} -> {keptKeys}";
        }

        var columns = pairs.SelectMany(p => p.First.Columns.Cast<DataColumn>().Zip(p.Second.Columns.Cast<DataColumn>())).ToList();
        (int Count, string What)[] counts =
        [
            (columns.Count(c => c.First.DataType != c.Second.DataType), "column types changed"),
            (columns.Count(c => !c.First.AllowDBNull && c.Second.AllowDBNull), "non-null columns became nullable"),
            (columns.Count(c => c.First.DataType == typeof(DateTime) && c.First.DateTimeMode != c.Second.DateTimeMode), "DateTimeMode changed"),
            (pairs.Sum(p => Cells(p.First, p.Second)), "cells differ (value or DateTime.Kind)"),
        ];
        foreach (var (count, what) in counts.Where(c => c.Count > 0))
        {
            yield return $"{count} {what}";
        }
    }

    private static IEnumerable<string> Changes(DataSet expected, DataSet actual)
    {
        string before = States(expected.Tables[0]), after = States(actual.Tables[0]);
        if (before != after)
        {
            yield return $"row states {before} -> {after}";
        }

        int originals = expected.Tables[0].Rows.Cast<DataRow>().Count(r => r.RowState == DataRowState.Modified);
        int kept = actual.Tables[0].Rows.Cast<DataRow>().Count(r => r.RowState == DataRowState.Modified && r.HasVersion(DataRowVersion.Original));
        if (originals != kept)
        {
            yield return $"original values of modified rows {originals} -> {kept}";
        }
    }

    private static string Edit(DataTable table)
    {
        var keyed = new HashSet<DataColumn>(table.PrimaryKey);
        var column = table.Columns.Cast<DataColumn>().First(c => !keyed.Contains(c));
        table.Rows[1][column] = table.Rows[2][column];
        table.Rows[0].Delete();
        var values = table.Rows[3].ItemArray;
        foreach (var key in table.PrimaryKey)
        {
            values[key.Ordinal] = Convert.ChangeType(10_000_000, key.DataType, System.Globalization.CultureInfo.InvariantCulture);
        }

        table.Rows.Add(values);
        return $"'{table.TableName}': 1 modified, 1 deleted, 1 added";
    }

    private static string States(DataTable table) =>
        string.Join(", ", table.Rows.Cast<DataRow>().GroupBy(r => r.RowState).OrderBy(g => g.Key).Select(g => $"{g.Key} {g.Count()}"));

    private static int Cells(DataTable expected, DataTable actual)
    {
        int differ = Math.Abs(expected.Rows.Count - actual.Rows.Count) * expected.Columns.Count;
        for (int r = 0; r < Math.Min(expected.Rows.Count, actual.Rows.Count); r++)
        {
            for (int c = 0; c < expected.Columns.Count; c++)
            {
                object a = expected.Rows[r][c], b = actual.Rows[r][c];
                bool same = a.Equals(b) && (a is not DateTime d || d.Kind == ((DateTime)b).Kind);
                differ += same ? 0 : 1;
            }
        }

        return differ;
    }
}
