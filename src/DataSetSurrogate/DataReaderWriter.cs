using System.Data;
using System.Globalization;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Streams every result set of an <see cref="IDataReader"/> as a table: a table schema built from the reader's field
/// names and types (a column-only DataTable, never rows), then row blocks of at most RowsPerBlock rows, so memory
/// stays bounded whatever the row count. Rows travel as Unchanged, as <see cref="DataTable.Load(IDataReader)"/> makes them.
/// </summary>
internal static class DataReaderWriter
{
    public static void Write(ref ProtoWriter.State state, IDataReader reader, SurrogateOptions options)
    {
        PayloadWriter.WriteStart(ref state, PayloadKind.DataReader);
        var rowsPerBlock = Math.Clamp(options.RowsPerBlock, 1, SurrogateOptions.MaxRowsPerBlock);
        var values = new ColumnValues();
        var index = 0;
        do
        {
            var table = SchemaTable(reader, index == 0 ? "Table" : "Table" + index.ToString(CultureInfo.InvariantCulture));
            var context = new TableWriteContext(table, standalone: true, options, new AutoIncrementProbe(), index);
            ProtoWrite.Message(ref state, PayloadField.Table, context, static (ref ProtoWriter.State s, TableWriteContext t) => SchemaWriter.WriteTable(ref s, t));
            WriteRows(ref state, reader, context, values, rowsPerBlock, Math.Max(1, options.BlockByteBudget));
            index++;
        }
        while (reader.NextResult());

        // An empty tail closes every payload, so a reader can tell a complete payload from a truncated one.
        ProtoWrite.Message(ref state, PayloadField.Tail, (IReadOnlyList<DataTable>)[], static (ref ProtoWriter.State s, IReadOnlyList<DataTable> t) =>
            SchemaWriter.WriteTail(ref s, t, null));
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

    private static void WriteRows(ref ProtoWriter.State state, IDataReader reader, TableWriteContext context, ColumnValues values, int rowsPerBlock, long byteBudget)
    {
        var rows = new object[Math.Min(rowsPerBlock, 256)][];
        var block = 0;
        var count = 0;
        var fields = reader.FieldCount;
        long blockBytes = 0;
        var buffer = WireBuffer.Rent();
        try
        {
            while (reader.Read())
            {
                if (count == rows.Length)
                {
                    Array.Resize(ref rows, Math.Min(rowsPerBlock, rows.Length * 2));
                }

                var row = rows[count] ??= new object[fields];
                reader.GetValues(row);
                count++;
                blockBytes += VariableBytes(row);
                if (count == rowsPerBlock || blockBytes >= byteBudget)
                {
                    WriteBlock(ref state, buffer, context, rows, count, values, block++);
                    count = 0;
                    blockBytes = 0;
                }
            }

            if (count > 0)
            {
                WriteBlock(ref state, buffer, context, rows, count, values, block);
            }

        }
        finally
        {
            buffer.Return();
        }
    }

    private static void WriteBlock(ref ProtoWriter.State state, WireBuffer buffer, TableWriteContext context, object[][] rows, int count, ColumnValues values, int block)
    {
        try
        {
            buffer.Clear();
            buffer.UInt(BlockField.RowCount, count);
            if (context.Index > 0)
            {
                buffer.UInt(BlockField.Table, context.Index);
            }

            if (!context.CarriesValues)
            {
                buffer.Packed(BlockField.States, new long[count], zigzag: false);
            }

            var bitmap = new byte[(count + 7) >> 3];
            for (var c = 0; c < context.Codecs.Length; c++)
            {
                var anyNull = FillColumn(context, c, rows, count, values, bitmap);
                try
                {
                    ColumnDataCodec.Write(buffer, BlockField.Column, values, anyNull ? bitmap : []);
                }
                catch (DataSetSurrogateException ex)
                {
                    throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, context.Table.Columns[c].ColumnName, null);
                }
            }

            buffer.EmitTo(ref state, PayloadField.Rows);
            // Hand each finished block to a stream destination now, so memory stays bounded by one block.
            state.Flush();
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, null, block);
        }
    }

    // Roughly what a row's variable-length values will take on the wire (UTF-16 length stands in for UTF-8).
    private static long VariableBytes(object[] row)
    {
        long bytes = 0;
        foreach (var value in row)
        {
            bytes += value switch
            {
                string s => s.Length,
                byte[] b => b.Length,
                _ => 0,
            };
        }

        return bytes;
    }

    private static bool FillColumn(TableWriteContext context, int column, object[][] rows, int count, ColumnValues values, byte[] bitmap)
    {
        var codec = context.Codecs[column];
        values.Clear();
        Array.Clear(bitmap);
        var anyNull = false;
        try
        {
            for (var i = 0; i < count; i++)
            {
                var value = rows[i][column];
                if (value is null || codec.IsNull(value))
                {
                    bitmap[i >> 3] |= (byte)(1 << (i & 7));
                    anyNull = true;
                }
                else
                {
                    codec.Append(values, value);
                }
            }
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, context.Table.Columns[column].ColumnName, null);
        }

        return anyNull;
    }
}
