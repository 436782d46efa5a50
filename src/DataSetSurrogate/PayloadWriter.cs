using System.Data;
using ProtoBuf;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Writes a whole payload in order: magic, version, kind, DataSetHeader, then per table its schema followed by its
/// row blocks, then the DataSetTail (foreign keys and relations, which need every table).
/// </summary>
internal static class PayloadWriter
{
    public static void WriteDataSet(ref ProtoWriter.State state, DataSet dataSet, SurrogateOptions options)
    {
        var tables = new List<DataTable>(dataSet.Tables.Count);
        foreach (DataTable table in dataSet.Tables)
        {
            tables.Add(table);
        }

        WriteStart(ref state, PayloadKind.DataSet);
        ProtoWrite.Message(ref state, PayloadField.Header, dataSet, static (ref ProtoWriter.State s, DataSet d) => SchemaWriter.WriteHeader(ref s, d));
        WriteTables(ref state, tables, standalone: false, options);
        var args = (tables, dataSet.Relations);
        ProtoWrite.Message(ref state, PayloadField.Tail, args, static (ref ProtoWriter.State s, (List<DataTable> T, DataRelationCollection R) a) =>
            SchemaWriter.WriteTail(ref s, a.T, a.R));
    }

    public static void WriteTable(ref ProtoWriter.State state, DataTable table, SurrogateOptions options)
    {
        List<DataTable> tables = [table];
        WriteStart(ref state, PayloadKind.DataTable);
        WriteTables(ref state, tables, standalone: true, options);
        ProtoWrite.Message(ref state, PayloadField.Tail, tables, static (ref ProtoWriter.State s, List<DataTable> t) =>
            SchemaWriter.WriteTail(ref s, t, null));
    }

    public static void WriteStart(ref ProtoWriter.State state, PayloadKind kind)
    {
        state.WriteFieldHeader(PayloadField.Magic, WireType.Fixed32);
        state.WriteUInt32(PayloadField.MagicValue);
        ProtoWrite.UInt(ref state, PayloadField.Version, PayloadField.CurrentVersion);
        ProtoWrite.UInt(ref state, PayloadField.Kind, (int)kind);
    }

    private static void WriteTables(ref ProtoWriter.State state, List<DataTable> tables, bool standalone, SurrogateOptions options)
    {
        var rows = RowBlockWriter.Rent(options);
        var autoIncrement = new AutoIncrementProbe();
        try
        {
            for (var index = 0; index < tables.Count; index++)
            {
                var table = tables[index];
                TableWriteContext context;
                try
                {
                    context = new TableWriteContext(table, standalone, options, autoIncrement, index);
                    ProtoWrite.Message(ref state, PayloadField.Table, context, static (ref ProtoWriter.State s, TableWriteContext t) =>
                        SchemaWriter.WriteTable(ref s, t));
                }
                catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
                {
                    throw DataSetSurrogateException.Wrap(ex, table.TableName, null, null);
                }

                rows.WriteTableRows(ref state, context);
            }
        }
        finally
        {
            rows.Return();
        }
    }
}
