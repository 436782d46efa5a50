using System.Data;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Wire;

namespace Surrogate.Schema;

/// <summary>Decodes the schema messages into models, checking every count and name against the limits.</summary>
internal static class SchemaReader
{
    public static HeaderModel ReadHeader(ref ProtoReader.State state, SurrogateOptions options)
    {
        var header = new HeaderModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case HeaderField.Name: header.DataSetName = ProtoRead.Name(ref state, options); break;
                case HeaderField.Namespace: header.Namespace = ProtoRead.Name(ref state, options); break;
                case HeaderField.Prefix: header.Prefix = ProtoRead.Name(ref state, options); break;
                case HeaderField.CaseSensitive: header.CaseSensitive = state.ReadBoolean(); break;
                case HeaderField.Locale: header.Locale = ProtoRead.Name(ref state, options); break;
                case HeaderField.LocaleSet: header.LocaleSet = state.ReadBoolean(); break;
                case HeaderField.EnforceConstraints: header.EnforceConstraints = state.ReadBoolean(); break;
                case HeaderField.ExtendedProperty: ExtendedPropertiesCodec.Read(ref state, header.ExtendedProperties ??= [], options); break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        return header;
    }

    public static TableModel ReadTable(ref ProtoReader.State state, SurrogateOptions options, ref int constraints)
    {
        var table = new TableModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case TableField.Name: table.Name = ProtoRead.Name(ref state, options); break;
                case TableField.Namespace: table.Namespace = ProtoRead.Name(ref state, options); break;
                case TableField.Prefix: table.Prefix = ProtoRead.Name(ref state, options); break;
                case TableField.CaseSensitive: table.CaseSensitive = state.ReadBoolean(); break;
                case TableField.Locale: table.Locale = ProtoRead.Name(ref state, options); break;
                case TableField.CaseSensitiveSet: table.CaseSensitiveSet = state.ReadBoolean(); break;
                case TableField.LocaleSet: table.LocaleSet = state.ReadBoolean(); break;
                case TableField.MinimumCapacity: table.MinimumCapacity = ProtoRead.Int32(ref state, 0, int.MaxValue, "minimum capacity"); break;
                case TableField.DisplayExpression: table.DisplayExpression = ExpressionGuard.Check(ProtoRead.Text(ref state, options.MaxExpressionLength, "display expression", nameof(SurrogateOptions.MaxExpressionLength)), options); break;
                case TableField.ExtendedProperty: ExtendedPropertiesCodec.Read(ref state, table.ExtendedProperties ??= [], options); break;
                case TableField.Column:
                    if (table.Columns.Count >= options.MaxColumnsPerTable)
                    {
                        Throw.Limit("columns in a table", table.Columns.Count + 1, options.MaxColumnsPerTable, nameof(SurrogateOptions.MaxColumnsPerTable));
                    }

                    table.Columns.Add(ReadColumn(ref state, options));
                    break;
                case TableField.RecordCountHint: table.RecordCountHint = state.ReadInt64(); break;
                case TableField.PrimaryKey: table.PrimaryKey = ProtoRead.PackedOrdinals(ref state, table.Columns.Count, "primary key column"); break;
                case TableField.Unique:
                    if (++constraints > options.MaxConstraints)
                    {
                        Throw.Limit("constraints", constraints, options.MaxConstraints, nameof(SurrogateOptions.MaxConstraints));
                    }

                    table.Uniques.Add(ReadUnique(ref state, table.Columns.Count, options));
                    break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        return table;
    }

    private static ColumnModel ReadColumn(ref ProtoReader.State state, SurrogateOptions options)
    {
        var column = new ColumnModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case ColumnField.Name: column.Name = ProtoRead.Name(ref state, options); break;
                case ColumnField.Type: column.Tag = (TypeTag)ProtoRead.Int32(ref state, 1, 100, "column type tag"); break;
                case ColumnField.ExtensionKey: column.ExtensionKey = ProtoRead.Name(ref state, options); break;
                case ColumnField.AllowDBNull: column.AllowDBNull = state.ReadBoolean(); break;
                case ColumnField.DefaultValue: column.DefaultValue = ValueCodec.Read(ref state, options, new ColumnCursor()); break;
                case ColumnField.MaxLength: column.MaxLength = checked((int)ProtoRead.SInt64(ref state)); break;
                case ColumnField.ReadOnly: column.ReadOnly = state.ReadBoolean(); break;
                case ColumnField.Caption: column.Caption = ProtoRead.Text(ref state, options.MaxNameLength, "caption", nameof(SurrogateOptions.MaxNameLength)); break;
                case ColumnField.ColumnMapping: column.ColumnMapping = Enum<MappingType>(ref state, "column mapping"); break;
                case ColumnField.AutoIncrement: column.AutoIncrement = state.ReadBoolean(); break;
                case ColumnField.AutoIncrementSeed: column.AutoIncrementSeed = ProtoRead.SInt64(ref state); break;
                case ColumnField.AutoIncrementStep: column.AutoIncrementStep = ProtoRead.SInt64(ref state); break;
                case ColumnField.AutoIncrementNext: column.AutoIncrementNext = ProtoRead.SInt64(ref state); break;
                case ColumnField.DateTimeMode: column.DateTimeMode = Enum<DataSetDateTime>(ref state, "DateTimeMode"); break;
                case ColumnField.Namespace: column.Namespace = ProtoRead.Name(ref state, options); break;
                case ColumnField.Prefix: column.Prefix = ProtoRead.Name(ref state, options); break;
                case ColumnField.Expression: column.Expression = ExpressionGuard.Check(ProtoRead.Text(ref state, options.MaxExpressionLength, "expression", nameof(SurrogateOptions.MaxExpressionLength)), options); break;
                case ColumnField.ExtendedProperty: ExtendedPropertiesCodec.Read(ref state, column.ExtendedProperties ??= [], options); break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        if (column.Tag == TypeTag.Extension && column.ExtensionKey is null)
        {
            Throw.Invalid($"Column '{column.Name}' is an extension type without a key.");
        }

        return column;
    }

    private static UniqueModel ReadUnique(ref ProtoReader.State state, int columns, SurrogateOptions options)
    {
        var unique = new UniqueModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case UniqueField.Name: unique.Name = ProtoRead.Name(ref state, options); break;
                case UniqueField.Columns: unique.Columns = ProtoRead.PackedOrdinals(ref state, columns, "constraint column"); break;
                case UniqueField.IsPrimaryKey: unique.IsPrimaryKey = state.ReadBoolean(); break;
                case UniqueField.ExtendedProperty: ExtendedPropertiesCodec.Read(ref state, unique.ExtendedProperties ??= [], options); break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        return unique;
    }

    public static TailModel ReadTail(ref ProtoReader.State state, SurrogateOptions options, int tables, int constraints)
    {
        var tail = new TailModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case TailField.ForeignKey:
                    if (++constraints > options.MaxConstraints)
                    {
                        Throw.Limit("constraints", constraints, options.MaxConstraints, nameof(SurrogateOptions.MaxConstraints));
                    }

                    tail.ForeignKeys.Add(ReadForeignKey(ref state, options, tables));
                    break;
                case TailField.Relation:
                    if (tail.Relations.Count >= options.MaxRelations)
                    {
                        Throw.Limit("relations", tail.Relations.Count + 1, options.MaxRelations, nameof(SurrogateOptions.MaxRelations));
                    }

                    tail.Relations.Add(ReadRelation(ref state, options, tables));
                    break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        return tail;
    }

    private static ForeignKeyModel ReadForeignKey(ref ProtoReader.State state, SurrogateOptions options, int tables)
    {
        var fk = new ForeignKeyModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case ForeignKeyField.Name: fk.Name = ProtoRead.Name(ref state, options); break;
                case ForeignKeyField.ChildTable: fk.ChildTable = ProtoRead.Int32(ref state, 0, tables - 1, "table index"); break;
                case ForeignKeyField.ChildColumns: fk.ChildColumns = ProtoRead.PackedOrdinals(ref state, options.MaxColumnsPerTable, "column ordinal"); break;
                case ForeignKeyField.ParentTable: fk.ParentTable = ProtoRead.Int32(ref state, 0, tables - 1, "table index"); break;
                case ForeignKeyField.ParentColumns: fk.ParentColumns = ProtoRead.PackedOrdinals(ref state, options.MaxColumnsPerTable, "column ordinal"); break;
                case ForeignKeyField.DeleteRule: fk.DeleteRule = Enum<Rule>(ref state, "delete rule"); break;
                case ForeignKeyField.UpdateRule: fk.UpdateRule = Enum<Rule>(ref state, "update rule"); break;
                case ForeignKeyField.AcceptRejectRule: fk.AcceptRejectRule = Enum<AcceptRejectRule>(ref state, "accept/reject rule"); break;
                case ForeignKeyField.ExtendedProperty: ExtendedPropertiesCodec.Read(ref state, fk.ExtendedProperties ??= [], options); break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        return fk;
    }

    private static RelationModel ReadRelation(ref ProtoReader.State state, SurrogateOptions options, int tables)
    {
        var relation = new RelationModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case RelationField.Name: relation.Name = ProtoRead.Name(ref state, options); break;
                case RelationField.ParentTable: relation.ParentTable = ProtoRead.Int32(ref state, 0, tables - 1, "table index"); break;
                case RelationField.ParentColumns: relation.ParentColumns = ProtoRead.PackedOrdinals(ref state, options.MaxColumnsPerTable, "column ordinal"); break;
                case RelationField.ChildTable: relation.ChildTable = ProtoRead.Int32(ref state, 0, tables - 1, "table index"); break;
                case RelationField.ChildColumns: relation.ChildColumns = ProtoRead.PackedOrdinals(ref state, options.MaxColumnsPerTable, "column ordinal"); break;
                case RelationField.Nested: relation.Nested = state.ReadBoolean(); break;
                case RelationField.CreateConstraints: relation.CreateConstraints = state.ReadBoolean(); break;
                case RelationField.ExtendedProperty: ExtendedPropertiesCodec.Read(ref state, relation.ExtendedProperties ??= [], options); break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        return relation;
    }

    private static T Enum<T>(ref ProtoReader.State state, string what)
        where T : struct, Enum
    {
        var raw = state.ReadInt32();
        var value = (T)(object)raw;
        return System.Enum.IsDefined(value) ? value : Throw.Invalid<T>($"The payload holds an unknown {what}: {raw}.");
    }
}
