using System.Data;
using System.Data.Common;
using System.Data.SqlTypes;
using System.Globalization;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Fuzz;

/// <summary>Everything a data reader shows, one result set per table, with values described exactly.</summary>
public sealed record ReaderContents(IReadOnlyList<ReaderContents.ResultSet> Results)
{
    public sealed record ResultSet(string Columns, IReadOnlyList<string> Rows);

    /// <summary>Reads every result set, row and value (GetValues, IsDBNull and GetValue for each), then disposes.</summary>
    public static ReaderContents Read(DbDataReader reader)
    {
        using (reader)
        {
            var results = new List<ResultSet>();
            do
            {
                if (reader.FieldCount > 0)
                {
                    _ = reader.GetSchemaTable();
                }

                var columns = string.Join(",", Enumerable.Range(0, reader.FieldCount).Select(i => $"{reader.GetName(i)}:{reader.GetFieldType(i).Name}"));
                var rows = new List<string>();
                var values = new object[reader.FieldCount];
                while (reader.Read())
                {
                    reader.GetValues(values);
                    for (var i = 0; i < values.Length; i++)
                    {
                        if (reader.IsDBNull(i) != values[i] is DBNull || Describe(reader.GetValue(i)) != Describe(values[i]))
                        {
                            throw new FuzzFindingException($"GetValue({i}), IsDBNull({i}) and GetValues disagree in result {results.Count}");
                        }
                    }

                    rows.Add(string.Join("|", values.Select(Describe)));
                }

                results.Add(new ResultSet(columns, rows));
            }
            while (reader.NextResult());

            return Visible(results);
        }
    }

    /// <summary>What a reader over the same payload must show for a loaded DataSet: each table's non-deleted rows,
    /// current values, expression columns as DBNull (their values never travel).</summary>
    public static ReaderContents Of(DataSet dataSet) => Visible([.. dataSet.Tables.Cast<DataTable>().Select(table => new ResultSet(
        string.Join(",", table.Columns.Cast<DataColumn>().Select(c => $"{c.ColumnName}:{c.DataType.Name}")),
        [.. table.Rows.Cast<DataRow>().Where(r => r.RowState != DataRowState.Deleted).Select(row => string.Join("|",
            table.Columns.Cast<DataColumn>().Select(c => c.Expression.Length > 0 ? Describe(DBNull.Value) : Describe(row[c]))))]))]);

    // A payload without tables and one whose tables have no columns and no rows read alike (a reader over no
    // result set shows no columns and no rows): compare only what a reader can show.
    private static ReaderContents Visible(List<ResultSet> results) =>
        new([.. results.Where(r => r.Columns.Length > 0 || r.Rows.Count > 0)]);

    public static void Same(ReaderContents expected, ReaderContents actual)
    {
        if (expected.Results.Count != actual.Results.Count)
        {
            throw new FuzzFindingException($"{expected.Results.Count} result sets expected, {actual.Results.Count} read");
        }

        for (var i = 0; i < expected.Results.Count; i++)
        {
            var (e, a) = (expected.Results[i], actual.Results[i]);
            if (e.Columns != a.Columns || !e.Rows.SequenceEqual(a.Rows))
            {
                throw new FuzzFindingException($"result set {i} differs: columns {e.Columns} / {a.Columns}, {e.Rows.Count} / {a.Rows.Count} rows, " +
                    $"first difference: {e.Rows.Zip(a.Rows).FirstOrDefault(p => p.First != p.Second)}");
            }
        }
    }

    // A SqlType column holds its own Null where a reader may show DBNull: both mean "no value". A DateTime is
    // compared by ticks: the reader shows the Kind on the wire, a DataSet column its DateTimeMode's (a data-reader
    // payload carries no mode, so the DataSet column is UnspecifiedLocal); Kind fidelity is the round-trip tests' job.
    // An enum column's DataSet storage is its underlying integer; the reader shows the enum.
    private static string Describe(object? value) => value switch
    {
        INullable { IsNull: true } => DataSetAssert.Describe(DBNull.Value),
        DateTime dateTime => $"DateTime:{dateTime.Ticks}",
        Enum e => DataSetAssert.Describe(Convert.ChangeType(e, e.GetTypeCode(), CultureInfo.InvariantCulture)),
        _ => DataSetAssert.Describe(value),
    };
}
