using System.Data;
using Surrogate.Columns;
using Surrogate.Schema;

namespace Surrogate.Build;

/// <summary>Creates tables and columns from the payload's schema (for targets that do not declare them).</summary>
internal static class TableFactory
{
    public static DataTable CreateTable(TableModel model, DataSet dataSet)
    {
        // Made under the DataSet's locale: adding a table whose locale changes would skip inheriting case sensitivity.
        var table = CultureSettings.CreateUnder(dataSet.Locale, () => new DataTable(model.Name));
        if (!string.Equals(model.Namespace, dataSet.Namespace, StringComparison.Ordinal))
        {
            table.Namespace = model.Namespace;
        }

        if (!string.Equals(model.Prefix, dataSet.Prefix, StringComparison.Ordinal))
        {
            table.Prefix = model.Prefix;
        }

        ExtendedPropertiesCodec.Apply(table.ExtendedProperties, model.ExtendedProperties);
        dataSet.Tables.Add(table);
        CultureSettings.Apply(table, model, dataSet);
        return table;
    }

    public static DataColumn AddColumn(DataTable table, ColumnModel model, SurrogateOptions options)
    {
        var codec = Codec(model, options);
        var column = new DataColumn(model.Name, codec.ClrType);
        if (model.DateTimeMode is DataSetDateTime mode)
        {
            column.DateTimeMode = mode;
        }

        column.AllowDBNull = model.AllowDBNull;
        if (model.MaxLength >= 0)
        {
            column.MaxLength = model.MaxLength;
        }

        if (model.Caption is not null)
        {
            column.Caption = model.Caption;
        }

        column.ColumnMapping = model.ColumnMapping;
        if (model.AutoIncrement)
        {
            column.AutoIncrement = true;
            column.AutoIncrementSeed = model.AutoIncrementSeed;
            column.AutoIncrementStep = model.AutoIncrementStep;
            // DataSet turns an AutoIncrement column of another type into Int32 rather than refuse it; no writer
            // produces that, and the payload's values would then land in a column of a type they were not written for.
            if (column.DataType != codec.ClrType)
            {
                Throw.Invalid($"Column '{model.Name}' is AutoIncrement, which its type {codec.ClrType.Name} does not allow.");
            }
        }

        if (model.DefaultValue is not null)
        {
            column.DefaultValue = codec.ClrType.IsEnum && model.DefaultValue is long number ? Enum.ToObject(codec.ClrType, number) : model.DefaultValue;
        }

        if (model.Namespace is not null)
        {
            column.Namespace = model.Namespace;
        }

        if (model.Prefix is not null)
        {
            column.Prefix = model.Prefix;
        }

        ExtendedPropertiesCodec.Apply(column.ExtendedProperties, model.ExtendedProperties);
        table.Columns.Add(column);
        return column;
    }

    private static ColumnCodec Codec(ColumnModel model, SurrogateOptions options)
    {
        if (model.Tag == TypeTag.Extension)
        {
            var extra = options.FindExtra(model.ExtensionKey!)
                ?? Throw.Invalid<SurrogateColumnType>($"Column '{model.Name}' has extension type key '{model.ExtensionKey}', which SurrogateOptions.ExtraColumnTypes does not register.");
            return ColumnCodecs.ForExtension(extra);
        }

        return ColumnCodecs.ForTag(model.Tag)
            ?? Throw.Invalid<ColumnCodec>($"Column '{model.Name}' has unknown type tag {(int)model.Tag}.");
    }
}
