using System.Data;
using System.Data.Common;
using Surrogate.Columns;
using Surrogate.Schema;

namespace Surrogate.Reader;

/// <summary>Builds <see cref="DbDataReader.GetSchemaTable"/> for a result set from the payload's table schema.</summary>
internal static class SchemaTableBuilder
{
    public static DataTable Build(TableModel table, ColumnCodec?[] codecs)
    {
        var schema = new DataTable("SchemaTable") { Locale = System.Globalization.CultureInfo.InvariantCulture };
        schema.Columns.Add(SchemaTableColumn.ColumnName, typeof(string));
        schema.Columns.Add(SchemaTableColumn.ColumnOrdinal, typeof(int));
        schema.Columns.Add(SchemaTableColumn.ColumnSize, typeof(int));
        schema.Columns.Add(SchemaTableColumn.DataType, typeof(Type));
        schema.Columns.Add(SchemaTableColumn.AllowDBNull, typeof(bool));
        schema.Columns.Add(SchemaTableColumn.IsKey, typeof(bool));
        schema.Columns.Add(SchemaTableColumn.IsUnique, typeof(bool));
        schema.Columns.Add(SchemaTableOptionalColumn.IsAutoIncrement, typeof(bool));
        schema.Columns.Add(SchemaTableOptionalColumn.IsReadOnly, typeof(bool));
        schema.Columns.Add(SchemaTableColumn.BaseTableName, typeof(string));
        schema.Columns.Add(SchemaTableOptionalColumn.Expression, typeof(string));
        for (var i = 0; i < table.Columns.Count; i++)
        {
            var column = table.Columns[i];
            var isKey = Array.IndexOf(table.PrimaryKey, i) >= 0;
            var isUnique = table.Uniques.Exists(u => u.Columns.Length == 1 && u.Columns[0] == i);
            schema.Rows.Add(
                column.Name,
                i,
                column.MaxLength,
                codecs[i]?.ClrType ?? ExpressionColumnType(column),
                column.AllowDBNull,
                isKey,
                isUnique,
                column.AutoIncrement,
                column.ReadOnly || column.Expression is not null,
                table.Name,
                (object?)column.Expression ?? DBNull.Value);
        }

        return schema;
    }

    public static Type ExpressionColumnType(ColumnModel column) =>
        ColumnCodecs.ForTag(column.Tag)?.ClrType ?? typeof(object);
}
