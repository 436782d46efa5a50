using System.Data;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Wire;

namespace Surrogate.Schema;

/// <summary>Writes DataSetHeader, TableSchema (with its columns and unique constraints) and DataSetTail.</summary>
internal static class SchemaWriter
{
    public static void WriteHeader(ref ProtoWriter.State state, DataSet dataSet)
    {
        ProtoWrite.String(ref state, HeaderField.Name, dataSet.DataSetName);
        ProtoWrite.NonEmpty(ref state, HeaderField.Namespace, dataSet.Namespace);
        ProtoWrite.NonEmpty(ref state, HeaderField.Prefix, dataSet.Prefix);
        ProtoWrite.Bool(ref state, HeaderField.CaseSensitive, dataSet.CaseSensitive);
        // The value and whether it was set, whatever the writer's culture: the bytes depend on the DataSet alone.
        ProtoWrite.String(ref state, HeaderField.Locale, dataSet.Locale.Name);
        ProtoWrite.Bool(ref state, HeaderField.LocaleSet, CultureSettings.IsLocaleSet(dataSet));

        ProtoWrite.Bool(ref state, HeaderField.EnforceConstraints, dataSet.EnforceConstraints);
        ExtendedPropertiesCodec.Write(ref state, HeaderField.ExtendedProperty, dataSet.ExtendedProperties, "the DataSet");
    }

    public static void WriteTable(ref ProtoWriter.State state, TableWriteContext context)
    {
        var table = context.Table;
        ProtoWrite.String(ref state, TableField.Name, table.TableName);
        ProtoWrite.NonEmpty(ref state, TableField.Namespace, table.Namespace);
        ProtoWrite.NonEmpty(ref state, TableField.Prefix, table.Prefix);
        // Values and whether each was set on the table or inherited from its DataSet, so the reader can make the same.
        ProtoWrite.Bool(ref state, TableField.CaseSensitive, table.CaseSensitive);
        ProtoWrite.String(ref state, TableField.Locale, table.Locale.Name);
        ProtoWrite.Bool(ref state, TableField.CaseSensitiveSet, CultureSettings.IsCaseSensitiveSet(table));
        ProtoWrite.Bool(ref state, TableField.LocaleSet, CultureSettings.IsLocaleSet(table));

        ProtoWrite.UInt(ref state, TableField.MinimumCapacity, table.MinimumCapacity);
        if (table.DisplayExpression.Length > 0)
        {
            ProtoWrite.String(ref state, TableField.DisplayExpression, table.DisplayExpression);
        }

        ExtendedPropertiesCodec.Write(ref state, TableField.ExtendedProperty, table.ExtendedProperties, $"table '{table.TableName}'");
        WriteColumns(ref state, context);

        if (table.PrimaryKey.Length > 0)
        {
            ProtoWrite.PackedUInt(ref state, TableField.PrimaryKey, Ordinals(table.PrimaryKey));
        }

        // Lets the reader size the table's storage once instead of growing it (each growth copies every column).
        if (table.Rows.Count > 0)
        {
            ProtoWrite.UInt(ref state, TableField.RecordCountHint, table.Rows.Count);
        }

        foreach (Constraint constraint in table.Constraints)
        {
            if (constraint is UniqueConstraint unique)
            {
                ProtoWrite.Message(ref state, TableField.Unique, unique, static (ref ProtoWriter.State s, UniqueConstraint u) =>
                {
                    ProtoWrite.String(ref s, UniqueField.Name, u.ConstraintName);
                    ProtoWrite.PackedUInt(ref s, UniqueField.Columns, Ordinals(u.Columns));
                    ProtoWrite.Bool(ref s, UniqueField.IsPrimaryKey, u.IsPrimaryKey);
                    ExtendedPropertiesCodec.Write(ref s, UniqueField.ExtendedProperty, u.ExtendedProperties, $"constraint '{u.ConstraintName}'");
                });
            }
        }
    }

    // One writer serves every column message of the table (flushed and taken per column), instead of one per column.
    private static void WriteColumns(ref ProtoWriter.State state, TableWriteContext context)
    {
        var next = context.AutoIncrement.NextValues(context.Table);
        var buffer = ProtoWrite.RentScratch();
        var column = ProtoWriter.State.Create(buffer, null, null);
        try
        {
            foreach (DataColumn dataColumn in context.Table.Columns)
            {
                WriteColumn(ref column, dataColumn, context.Codecs[dataColumn.Ordinal], next?[dataColumn.Ordinal]);
                column.Flush();
                ProtoWrite.Bytes(ref state, TableField.Column, buffer.TakeWritten());
            }

            column.Close();
        }
        catch
        {
            column.Abandon();
            throw;
        }
        finally
        {
            column.Dispose();
            ProtoWrite.ReturnScratch(buffer);
        }
    }

    private static void WriteColumn(ref ProtoWriter.State state, DataColumn column, ColumnCodec codec, long? next)
    {
        ProtoWrite.String(ref state, ColumnField.Name, column.ColumnName);
        ProtoWrite.UInt(ref state, ColumnField.Type, (int)codec.Tag);
        if (codec.Tag == TypeTag.Extension)
        {
            ProtoWrite.String(ref state, ColumnField.ExtensionKey, codec.ExtensionKey);
        }

        ProtoWrite.Bool(ref state, ColumnField.AllowDBNull, column.AllowDBNull);
        if (column.DefaultValue is not DBNull && !codec.IsNull(column.DefaultValue))
        {
            // An enum default travels as its integer (tagged Int64); a blob-codec type's default is the target's concern.
            var defaultValue = column.DataType.IsEnum ? Convert.ToInt64(column.DefaultValue, System.Globalization.CultureInfo.InvariantCulture) : column.DefaultValue;
            if (codec.Tag != TypeTag.Extension || column.DataType.IsEnum)
            {
                ValueCodec.Write(ref state, ColumnField.DefaultValue, defaultValue);
            }
        }

        ProtoWrite.SInt(ref state, ColumnField.MaxLength, column.MaxLength);
        if (column.ReadOnly)
        {
            ProtoWrite.Bool(ref state, ColumnField.ReadOnly, true);
        }

        if (!string.Equals(column.Caption, column.ColumnName, StringComparison.Ordinal))
        {
            ProtoWrite.String(ref state, ColumnField.Caption, column.Caption);
        }

        ProtoWrite.UInt(ref state, ColumnField.ColumnMapping, (int)column.ColumnMapping);
        if (column.AutoIncrement)
        {
            ProtoWrite.Bool(ref state, ColumnField.AutoIncrement, true);
            ProtoWrite.SInt(ref state, ColumnField.AutoIncrementSeed, column.AutoIncrementSeed);
            ProtoWrite.SInt(ref state, ColumnField.AutoIncrementStep, column.AutoIncrementStep);
            if (next is long value)
            {
                ProtoWrite.SInt(ref state, ColumnField.AutoIncrementNext, value);
            }
        }

        if (column.DataType == typeof(DateTime))
        {
            ProtoWrite.UInt(ref state, ColumnField.DateTimeMode, (int)column.DateTimeMode);
        }

        var table = column.Table;
        // What a new column would report without an explicit namespace: attributes default to none.
        var inherited = column.ColumnMapping == MappingType.Attribute ? string.Empty : table?.Namespace;
        if (table is not null && !string.Equals(column.Namespace, inherited, StringComparison.Ordinal))
        {
            ProtoWrite.String(ref state, ColumnField.Namespace, column.Namespace);
        }

        if (column.Prefix.Length > 0)
        {
            ProtoWrite.String(ref state, ColumnField.Prefix, column.Prefix);
        }

        if (column.Expression.Length > 0)
        {
            ProtoWrite.String(ref state, ColumnField.Expression, column.Expression);
        }

        ExtendedPropertiesCodec.Write(ref state, ColumnField.ExtendedProperty, column.ExtendedProperties, $"column '{column.ColumnName}'");
    }

    public static void WriteTail(ref ProtoWriter.State state, IReadOnlyList<DataTable> tables, DataRelationCollection? relations)
    {
        for (var t = 0; t < tables.Count; t++)
        {
            foreach (Constraint constraint in tables[t].Constraints)
            {
                if (constraint is ForeignKeyConstraint fk && IndexOf(tables, fk.RelatedTable) is var parent and >= 0)
                {
                    var args = (fk, t, parent);
                    ProtoWrite.Message(ref state, TailField.ForeignKey, args, static (ref ProtoWriter.State s, (ForeignKeyConstraint Fk, int Child, int Parent) a) =>
                    {
                        ProtoWrite.String(ref s, ForeignKeyField.Name, a.Fk.ConstraintName);
                        ProtoWrite.UInt(ref s, ForeignKeyField.ChildTable, a.Child);
                        ProtoWrite.PackedUInt(ref s, ForeignKeyField.ChildColumns, Ordinals(a.Fk.Columns));
                        ProtoWrite.UInt(ref s, ForeignKeyField.ParentTable, a.Parent);
                        ProtoWrite.PackedUInt(ref s, ForeignKeyField.ParentColumns, Ordinals(a.Fk.RelatedColumns));
                        ProtoWrite.UInt(ref s, ForeignKeyField.DeleteRule, (int)a.Fk.DeleteRule);
                        ProtoWrite.UInt(ref s, ForeignKeyField.UpdateRule, (int)a.Fk.UpdateRule);
                        ProtoWrite.UInt(ref s, ForeignKeyField.AcceptRejectRule, (int)a.Fk.AcceptRejectRule);
                        ExtendedPropertiesCodec.Write(ref s, ForeignKeyField.ExtendedProperty, a.Fk.ExtendedProperties, $"constraint '{a.Fk.ConstraintName}'");
                    });
                }
            }
        }

        if (relations is null)
        {
            return;
        }

        foreach (DataRelation relation in relations)
        {
            var args = (relation, IndexOf(tables, relation.ParentTable), IndexOf(tables, relation.ChildTable));
            ProtoWrite.Message(ref state, TailField.Relation, args, static (ref ProtoWriter.State s, (DataRelation R, int Parent, int Child) a) =>
            {
                ProtoWrite.String(ref s, RelationField.Name, a.R.RelationName);
                ProtoWrite.UInt(ref s, RelationField.ParentTable, a.Parent);
                ProtoWrite.PackedUInt(ref s, RelationField.ParentColumns, Ordinals(a.R.ParentColumns));
                ProtoWrite.UInt(ref s, RelationField.ChildTable, a.Child);
                ProtoWrite.PackedUInt(ref s, RelationField.ChildColumns, Ordinals(a.R.ChildColumns));
                ProtoWrite.Bool(ref s, RelationField.Nested, a.R.Nested);
                ProtoWrite.Bool(ref s, RelationField.CreateConstraints, a.R.ChildKeyConstraint is not null);
                ExtendedPropertiesCodec.Write(ref s, RelationField.ExtendedProperty, a.R.ExtendedProperties, $"relation '{a.R.RelationName}'");
            });
        }
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

    private static long[] Ordinals(DataColumn[] columns)
    {
        var ordinals = new long[columns.Length];
        for (var i = 0; i < columns.Length; i++)
        {
            ordinals[i] = columns[i].Ordinal;
        }

        return ordinals;
    }
}
