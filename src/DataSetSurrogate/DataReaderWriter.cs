using System.Buffers;
using System.Data;
using System.Globalization;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Streams every result set of an <see cref="IDataReader"/> as a table: a table schema built from the reader's field
/// names and types (a column-only DataTable, never rows), then row blocks of at most RowsPerBlock rows, so memory
/// stays bounded whatever the row count. Rows travel as Unchanged, as <see cref="DataTable.Load(IDataReader)"/> makes
/// them. Written piece by piece, as <see cref="PayloadWriter"/> writes a DataSet.
/// </summary>
internal static class DataReaderWriter
{
    public static IEnumerable<bool> Write(IBufferWriter<byte> output, IDataReader reader, SurrogateOptions options)
    {
        var rows = RowBlockWriter.Rent();
        try
        {
            PayloadWriter.WriteStart(output, PayloadKind.DataReader, null, rows.Scratch);
            yield return true;
            var index = 0;
            do
            {
                var table = SchemaTable(reader, index == 0 ? "Table" : "Table" + index.ToString(CultureInfo.InvariantCulture));
                var context = PayloadWriter.WriteSchema(output, table, standalone: true, options, new AutoIncrementProbe(), index, rows.Scratch);
                yield return true;
                for (var block = 0; rows.ReadRecords(reader, options.RowsPerBlock, options.BlockByteBudget) > 0; block++)
                {
                    WriteRecords(output, rows, context, block);
                    yield return true;
                }

                index++;
            }
            while (reader.NextResult());

            PayloadWriter.WriteTail(output, [], null, rows.Scratch);
            yield return true;
        }
        finally
        {
            rows.Return();
        }
    }

    private static DataTable SchemaTable(IDataReader reader, string name)
    {
        var table = new DataTable(name) { Locale = CultureInfo.InvariantCulture };
        var schema = reader.GetSchemaTable();
        for (var i = 0; i < reader.FieldCount; i++)
        {
            var columnName = reader.GetName(i);
            var unique = string.IsNullOrEmpty(columnName) ? "Column" + (i + 1).ToString(CultureInfo.InvariantCulture) : columnName;
            for (var n = 1; table.Columns.Contains(unique); n++)
            {
                unique = columnName + n.ToString(CultureInfo.InvariantCulture);
            }

            var column = table.Columns.Add(unique, reader.GetFieldType(i));
            if (schema is not null && schema.Columns.Contains("AllowDBNull") && i < schema.Rows.Count && schema.Rows[i]["AllowDBNull"] is bool allow)
            {
                column.AllowDBNull = allow;
            }
        }

        return table;
    }

    private static void WriteRecords(IBufferWriter<byte> output, RowBlockWriter rows, TableWriteContext context, int block)
    {
        var writer = new WireWriter(output);
        rows.WriteRecords(ref writer, context, block);
        writer.Flush();
    }
}
