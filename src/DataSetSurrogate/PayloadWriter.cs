using System.Buffers;
using System.Data;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Writes a whole payload in order: magic, version, kind, DataSetHeader, then per table its schema followed by its
/// row blocks, then the DataSetTail (foreign keys and relations, which need every table). The payload is written one
/// piece at a time (the start, a table schema, a row block, the tail): each step of the returned sequence writes one
/// piece to the output and hands it on (<see cref="IBufferWriter{T}.Advance"/>), so a caller that passes each piece on
/// holds about one row block, and an asynchronous caller can await between pieces.
/// </summary>
internal static class PayloadWriter
{
    public static IEnumerable<bool> DataSet(IBufferWriter<byte> output, DataSet dataSet, SurrogateOptions options)
    {
        var tables = new List<DataTable>(dataSet.Tables.Count);
        for (var i = 0; i < dataSet.Tables.Count; i++)
        {
            tables.Add(dataSet.Tables[i]);
        }

        return Tables(output, PayloadKind.DataSet, dataSet, tables, dataSet.Relations, options);
    }

    public static IEnumerable<bool> DataTable(IBufferWriter<byte> output, DataTable table, SurrogateOptions options) =>
        Tables(output, PayloadKind.DataTable, null, [table], null, options);

    private static IEnumerable<bool> Tables(IBufferWriter<byte> output, PayloadKind kind, DataSet? dataSet, List<DataTable> tables, DataRelationCollection? relations, SurrogateOptions options)
    {
        var rows = RowBlockWriter.Rent();
        var autoIncrement = new AutoIncrementProbe();
        try
        {
            WriteStart(output, kind, dataSet, rows.Scratch);
            yield return true;
            for (var index = 0; index < tables.Count; index++)
            {
                var table = tables[index];
                var context = WriteSchema(output, table, standalone: dataSet is null, options, autoIncrement, index, rows.Scratch);
                yield return true;
                var total = table.Rows.Count;
                if (total == 0)
                {
                    continue;
                }

                // CopyTo walks the row tree once; enumerating it costs about twice as much per row (an interface
                // call and a tree step per MoveNext), as much as reading every cell of a two-column table.
                var all = ArrayPool<DataRow>.Shared.Rent(total);
                try
                {
                    table.Rows.CopyTo(all, 0);
                    for (int start = 0, block = 0; start < total; start += options.RowsPerBlock, block++)
                    {
                        WriteBlock(output, rows, context, all, start, Math.Min(options.RowsPerBlock, total - start), block);
                        yield return true;
                    }
                }
                finally
                {
                    // Drop the row references so the pool does not keep the table alive.
                    Array.Clear(all, 0, total);
                    ArrayPool<DataRow>.Shared.Return(all);
                }
            }

            WriteTail(output, tables, relations, rows.Scratch);
            yield return true;
        }
        finally
        {
            rows.Return();
        }
    }

    /// <summary>Magic, version and kind, and the DataSet's header when there is one.</summary>
    public static void WriteStart(IBufferWriter<byte> output, PayloadKind kind, DataSet? dataSet, ColumnValues scratch)
    {
        var writer = new WireWriter(output);
        writer.Fixed32(PayloadField.Magic, PayloadField.MagicValue);
        writer.UInt(PayloadField.Version, PayloadField.CurrentVersion);
        writer.UInt(PayloadField.Kind, (int)kind);
        if (dataSet is not null)
        {
            SchemaWriter.WriteHeader(ref writer, dataSet, scratch);
        }

        writer.Flush();
    }

    /// <summary>A table's schema; returns what its row blocks need.</summary>
    public static TableWriteContext WriteSchema(IBufferWriter<byte> output, DataTable table, bool standalone, SurrogateOptions options, AutoIncrementProbe autoIncrement, int index, ColumnValues scratch)
    {
        try
        {
            var context = new TableWriteContext(table, standalone, options, autoIncrement, index);
            var writer = new WireWriter(output);
            SchemaWriter.WriteTable(ref writer, context, scratch);
            writer.Flush();
            return context;
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, table.TableName, null, null);
        }
    }

    /// <summary>The tail: always present, and empty for data-reader payloads, so a truncated payload is told from a complete one.</summary>
    public static void WriteTail(IBufferWriter<byte> output, IReadOnlyList<DataTable> tables, DataRelationCollection? relations, ColumnValues scratch)
    {
        var writer = new WireWriter(output);
        SchemaWriter.WriteTail(ref writer, tables, relations, scratch);
        writer.Flush();
    }

    private static void WriteBlock(IBufferWriter<byte> output, RowBlockWriter rows, TableWriteContext context, DataRow[] all, int start, int count, int block)
    {
        var writer = new WireWriter(output);
        rows.WriteBlock(ref writer, context, all, start, count, block);
        writer.Flush();
    }
}
