using System.Data;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Wire;

namespace Surrogate.Schema;

/// <summary>
/// Writes DataSetHeader, TableSchema (with its columns and unique constraints) and DataSetTail as fields of the payload.
/// <c>scratch</c> accumulates the streams of tagged values (default values, extended properties).
/// </summary>
internal static class SchemaWriter
{
    public static void WriteHeader(ref WireWriter writer, DataSet dataSet, ColumnValues scratch)
    {
        var token = writer.BeginMessage(PayloadField.Header, 64);
        writer.String(HeaderField.Name, dataSet.DataSetName);
        writer.NonEmpty(HeaderField.Namespace, dataSet.Namespace);
        writer.NonEmpty(HeaderField.Prefix, dataSet.Prefix);
        writer.Bool(HeaderField.CaseSensitive, dataSet.CaseSensitive);
        // The value and whether it was set, whatever the writer's culture: the bytes depend on the DataSet alone.
        writer.String(HeaderField.Locale, dataSet.Locale.Name);
        writer.Bool(HeaderField.LocaleSet, CultureSettings.IsLocaleSet(dataSet));

        writer.Bool(HeaderField.EnforceConstraints, dataSet.EnforceConstraints);
        ExtendedPropertiesCodec.Write(ref writer, HeaderField.ExtendedProperty, dataSet.ExtendedProperties, "the DataSet", null, scratch);
        writer.EndMessage(token);
    }

    public static void WriteTable(ref WireWriter writer, TableWriteContext context, ColumnValues scratch)
    {
        var table = context.Table;
        var token = writer.BeginMessage(PayloadField.Table, 128 + (64 * table.Columns.Count));
        writer.String(TableField.Name, table.TableName);
        writer.NonEmpty(TableField.Namespace, table.Namespace);
        writer.NonEmpty(TableField.Prefix, table.Prefix);
        // Values and whether each was set on the table or inherited from its DataSet, so the reader can make the same.
        writer.Bool(TableField.CaseSensitive, table.CaseSensitive);
        writer.String(TableField.Locale, table.Locale.Name);
        writer.Bool(TableField.CaseSensitiveSet, CultureSettings.IsCaseSensitiveSet(table));
        writer.Bool(TableField.LocaleSet, CultureSettings.IsLocaleSet(table));

        writer.UInt(TableField.MinimumCapacity, table.MinimumCapacity);
        if (table.DisplayExpression.Length > 0)
        {
            writer.String(TableField.DisplayExpression, table.DisplayExpression);
        }

        ExtendedPropertiesCodec.Write(ref writer, TableField.ExtendedProperty, table.ExtendedProperties, "table", table.TableName, scratch);
        var next = context.AutoIncrement.NextValues(table);
        for (var i = 0; i < context.Codecs.Length; i++)
        {
            WriteColumn(ref writer, table.Columns[i], context.Codecs[i], next?[i], scratch);
        }

        Ordinals(ref writer, TableField.PrimaryKey, table.PrimaryKey);

        // Lets the reader size the table's storage once instead of growing it (each growth copies every column).
        if (table.Rows.Count > 0)
        {
            writer.UInt(TableField.RecordCountHint, table.Rows.Count);
        }

        // Indexed loops: the collections' enumerators are allocations a payload does not need.
        var constraints = table.Constraints;
        for (var i = 0; i < constraints.Count; i++)
        {
            if (constraints[i] is UniqueConstraint unique)
            {
                var message = writer.BeginMessage(TableField.Unique, 32);
                writer.String(UniqueField.Name, unique.ConstraintName);
                Ordinals(ref writer, UniqueField.Columns, unique.Columns);
                writer.Bool(UniqueField.IsPrimaryKey, unique.IsPrimaryKey);
                ExtendedPropertiesCodec.Write(ref writer, UniqueField.ExtendedProperty, unique.ExtendedProperties, "constraint", unique.ConstraintName, scratch);
                writer.EndMessage(message);
            }
        }

        writer.EndMessage(token);
    }

    private static void WriteColumn(ref WireWriter writer, DataColumn column, ColumnCodec codec, long? next, ColumnValues scratch)
    {
        var token = writer.BeginMessage(TableField.Column, 32);
        writer.String(ColumnField.Name, column.ColumnName);
        writer.UInt(ColumnField.Type, (int)codec.Tag);
        if (codec.Tag == TypeTag.Extension)
        {
            writer.String(ColumnField.ExtensionKey, codec.ExtensionKey);
        }

        writer.Bool(ColumnField.AllowDBNull, column.AllowDBNull);
        if (column.DefaultValue is not DBNull && !codec.IsNull(column.DefaultValue))
        {
            // An enum default travels as its integer (tagged Int64); a blob-codec type's default is the target's concern.
            var defaultValue = column.DataType.IsEnum ? Convert.ToInt64(column.DefaultValue, System.Globalization.CultureInfo.InvariantCulture) : column.DefaultValue;
            if (codec.Tag != TypeTag.Extension || column.DataType.IsEnum)
            {
                ValueCodec.Write(ref writer, ColumnField.DefaultValue, defaultValue, scratch);
            }
        }

        writer.SInt(ColumnField.MaxLength, column.MaxLength);
        if (column.ReadOnly)
        {
            writer.Bool(ColumnField.ReadOnly, true);
        }

        if (!string.Equals(column.Caption, column.ColumnName, StringComparison.Ordinal))
        {
            writer.String(ColumnField.Caption, column.Caption);
        }

        writer.UInt(ColumnField.ColumnMapping, (int)column.ColumnMapping);
        if (column.AutoIncrement)
        {
            writer.Bool(ColumnField.AutoIncrement, true);
            writer.SInt(ColumnField.AutoIncrementSeed, column.AutoIncrementSeed);
            writer.SInt(ColumnField.AutoIncrementStep, column.AutoIncrementStep);
            if (next is long value)
            {
                writer.SInt(ColumnField.AutoIncrementNext, value);
            }
        }

        if (column.DataType == typeof(DateTime))
        {
            writer.UInt(ColumnField.DateTimeMode, (int)column.DateTimeMode);
        }

        var table = column.Table;
        // What a new column would report without an explicit namespace: attributes default to none.
        var inherited = column.ColumnMapping == MappingType.Attribute ? string.Empty : table?.Namespace;
        if (table is not null && !string.Equals(column.Namespace, inherited, StringComparison.Ordinal))
        {
            writer.String(ColumnField.Namespace, column.Namespace);
        }

        if (column.Prefix.Length > 0)
        {
            writer.String(ColumnField.Prefix, column.Prefix);
        }

        if (column.Expression.Length > 0)
        {
            writer.String(ColumnField.Expression, column.Expression);
        }

        ExtendedPropertiesCodec.Write(ref writer, ColumnField.ExtendedProperty, column.ExtendedProperties, "column", column.ColumnName, scratch);
        writer.EndMessage(token);
    }

    public static void WriteTail(ref WireWriter writer, IReadOnlyList<DataTable> tables, DataRelationCollection? relations, ColumnValues scratch)
    {
        var tail = writer.BeginMessage(PayloadField.Tail, 16);
        for (var t = 0; t < tables.Count; t++)
        {
            var constraints = tables[t].Constraints;
            for (var i = 0; i < constraints.Count; i++)
            {
                if (constraints[i] is ForeignKeyConstraint fk && IndexOf(tables, fk.RelatedTable) is var parent and >= 0)
                {
                    var token = writer.BeginMessage(TailField.ForeignKey, 32);
                    writer.String(ForeignKeyField.Name, fk.ConstraintName);
                    writer.UInt(ForeignKeyField.ChildTable, t);
                    Ordinals(ref writer, ForeignKeyField.ChildColumns, fk.Columns);
                    writer.UInt(ForeignKeyField.ParentTable, parent);
                    Ordinals(ref writer, ForeignKeyField.ParentColumns, fk.RelatedColumns);
                    writer.UInt(ForeignKeyField.DeleteRule, (int)fk.DeleteRule);
                    writer.UInt(ForeignKeyField.UpdateRule, (int)fk.UpdateRule);
                    writer.UInt(ForeignKeyField.AcceptRejectRule, (int)fk.AcceptRejectRule);
                    ExtendedPropertiesCodec.Write(ref writer, ForeignKeyField.ExtendedProperty, fk.ExtendedProperties, "constraint", fk.ConstraintName, scratch);
                    writer.EndMessage(token);
                }
            }
        }

        if (relations is not null)
        {
            for (var i = 0; i < relations.Count; i++)
            {
                var relation = relations[i];
                var token = writer.BeginMessage(TailField.Relation, 32);
                writer.String(RelationField.Name, relation.RelationName);
                writer.UInt(RelationField.ParentTable, IndexOf(tables, relation.ParentTable));
                Ordinals(ref writer, RelationField.ParentColumns, relation.ParentColumns);
                writer.UInt(RelationField.ChildTable, IndexOf(tables, relation.ChildTable));
                Ordinals(ref writer, RelationField.ChildColumns, relation.ChildColumns);
                writer.Bool(RelationField.Nested, relation.Nested);
                writer.Bool(RelationField.CreateConstraints, relation.ChildKeyConstraint is not null);
                ExtendedPropertiesCodec.Write(ref writer, RelationField.ExtendedProperty, relation.ExtendedProperties, "relation", relation.RelationName, scratch);
                writer.EndMessage(token);
            }
        }

        writer.EndMessage(tail);
    }

    private static int IndexOf(IReadOnlyList<DataTable> tables, DataTable table)
    {
        for (var i = 0; i < tables.Count; i++)
        {
            if (ReferenceEquals(tables[i], table))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>Column ordinals as a packed field, omitted when there are none.</summary>
    private static void Ordinals(ref WireWriter writer, int field, DataColumn[] columns)
    {
        if (columns.Length == 0)
        {
            return;
        }

        var token = writer.BeginMessage(field, columns.Length);
        foreach (var column in columns)
        {
            writer.Varint((uint)column.Ordinal);
        }

        writer.EndMessage(token);
    }
}
