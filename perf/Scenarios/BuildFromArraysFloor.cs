using System.Data;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// Deserialize floor: build the same DataSet from in-memory column arrays by the fastest public path (columns
/// first, constraints deferred, MinimumCapacity, BeginLoadData, one reused object[] per table,
/// LoadDataRow(OverwriteChanges) to get Unchanged rows in one step, then keys and relations, then constraints on,
/// then AllowDBNull).
/// It boxes each cell as any deserializer must; it decodes nothing.
/// </summary>
public static class BuildFromArraysFloor
{
    /// <summary>Builds a DataSet equal in schema and rows to the scenario the data came from.</summary>
    public static DataSet Build(ScenarioData data)
    {
        var schema = data.Schema;
        var dataSet = new DataSet(schema.DataSetName) { EnforceConstraints = false };
        for (int t = 0; t < data.Tables.Count; t++)
        {
            var source = data.Tables[t];
            var table = dataSet.Tables.Add(source.Name);
            foreach (DataColumn sourceColumn in schema.Tables[t].Columns)
            {
                var column = table.Columns.Add(sourceColumn.ColumnName, sourceColumn.DataType);
                if (sourceColumn.DataType == typeof(DateTime))
                {
                    column.DateTimeMode = sourceColumn.DateTimeMode;
                }
            }

            Load(table, source);
        }

        AddKeysAndRelations(schema, dataSet);
        dataSet.EnforceConstraints = true;
        // Non-null last: EnforceConstraints would look for nulls through a sorted index per non-null column, while
        // the AllowDBNull setter checks with one scan of the rows (the codec's loader does the same).
        for (int t = 0; t < data.Tables.Count; t++)
        {
            foreach (DataColumn sourceColumn in schema.Tables[t].Columns)
            {
                dataSet.Tables[t].Columns[sourceColumn.Ordinal].AllowDBNull = sourceColumn.AllowDBNull;
            }
        }

        return dataSet;
    }

    private static void Load(DataTable table, TableData source)
    {
        var columns = source.Columns;
        var values = new object[columns.Count];
        table.MinimumCapacity = source.RowCount;
        table.BeginLoadData();
        for (int r = 0; r < source.RowCount; r++)
        {
            for (int c = 0; c < values.Length; c++)
            {
                values[c] = columns[c].GetBoxed(r);
            }

            table.LoadDataRow(values, LoadOption.OverwriteChanges);
        }

        table.EndLoadData();
    }

    private static void AddKeysAndRelations(DataSet schema, DataSet dataSet)
    {
        foreach (DataTable sourceTable in schema.Tables)
        {
            var table = dataSet.Tables[sourceTable.TableName]!;
            if (sourceTable.PrimaryKey.Length > 0)
            {
                table.PrimaryKey = sourceTable.PrimaryKey.Select(c => table.Columns[c.ColumnName]!).ToArray();
            }
        }

        foreach (DataRelation relation in schema.Relations)
        {
            var parent = dataSet.Tables[relation.ParentTable.TableName]!;
            var child = dataSet.Tables[relation.ChildTable.TableName]!;
            dataSet.Relations.Add(
                relation.RelationName,
                relation.ParentColumns.Select(c => parent.Columns[c.ColumnName]!).ToArray(),
                relation.ChildColumns.Select(c => child.Columns[c.ColumnName]!).ToArray());
        }
    }
}
