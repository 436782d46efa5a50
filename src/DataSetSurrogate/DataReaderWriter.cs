using System.Data;
using System.Globalization;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Streams every result set of an <see cref="IDataReader"/> as a table: a schema frame built from the reader's field
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
            var context = new TableWriteContext(table, standalone: true, options);
            ProtoWrite.Message(ref state, PayloadField.Frame, context, static (ref ProtoWriter.State frame, TableWriteContext c) =>
                ProtoWrite.Message(ref frame, FrameField.Table, c, static (ref ProtoWriter.State s, TableWriteContext t) => SchemaWriter.WriteTable(ref s, t)));
            WriteRows(ref state, reader, context, values, rowsPerBlock);
            index++;
        }
        while (reader.NextResult());
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

    private static void WriteRows(ref ProtoWriter.State state, IDataReader reader, TableWriteContext context, ColumnValues values, int rowsPerBlock)
    {
        var rows = new object[Math.Min(rowsPerBlock, 256)][];
        var block = 0;
        var count = 0;
        var fields = reader.FieldCount;
        while (reader.Read())
        {
            if (count == rows.Length)
            {
                Array.Resize(ref rows, Math.Min(rowsPerBlock, rows.Length * 2));
            }

            var row = rows[count] ??= new object[fields];
            reader.GetValues(row);
            count++;
            if (count == rowsPerBlock)
            {
                WriteBlock(ref state, context, rows, count, values, block++);
                count = 0;
            }
        }

        if (count > 0)
        {
            WriteBlock(ref state, context, rows, count, values, block);
        }
    }

    private static void WriteBlock(ref ProtoWriter.State state, TableWriteContext context, object[][] rows, int count, ColumnValues values, int block)
    {
        try
        {
            var args = (context, rows, count, values);
            ProtoWrite.Message(ref state, PayloadField.Frame, args, static (ref ProtoWriter.State frame, (TableWriteContext C, object[][] R, int N, ColumnValues V) a) =>
                ProtoWrite.Message(ref frame, FrameField.Rows, a, static (ref ProtoWriter.State s, (TableWriteContext C, object[][] R, int N, ColumnValues V) b) =>
                    WriteBlockBody(ref s, b.C, b.R, b.N, b.V)));
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, null, block);
        }
    }

    private static void WriteBlockBody(ref ProtoWriter.State state, TableWriteContext context, object[][] rows, int count, ColumnValues values)
    {
        ProtoWrite.UInt(ref state, BlockField.RowCount, count);
        var bitmap = new byte[(count + 7) >> 3];
        for (var c = 0; c < context.Codecs.Length; c++)
        {
            var codec = context.Codecs[c];
            values.Clear();
            Array.Clear(bitmap);
            var anyNull = false;
            try
            {
                for (var i = 0; i < count; i++)
                {
                    var value = rows[i][c];
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
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, context.Table.Columns[c].ColumnName, null);
            }

            var args = (values, anyNull ? bitmap : []);
            ProtoWrite.Message(ref state, BlockField.Column, args, static (ref ProtoWriter.State s, (ColumnValues V, byte[] B) a) =>
                ColumnDataCodec.Write(ref s, a.V, a.B));
        }
    }
}
