using System.Data;
using Surrogate.Blocks;
using Surrogate.Columns;
using Surrogate.Wire;

namespace Surrogate.Rows;

/// <summary>
/// Writes row blocks, from a DataTable's rows or a data reader's records, as columnar RowBlock fields of the payload.
/// Each DataRow's primary version is its Current values (Original for Deleted rows); Modified rows add their Original
/// values in a second set of columns. Rows inside BeginEdit travel with their Current values: the Proposed version is
/// dropped, as DataSet XML drops it. A data reader's records travel as Unchanged rows, as DataTable.Load makes them.
/// </summary>
internal sealed partial class RowBlockWriter
{
    private readonly ColumnValues _values = new();
    private byte[] _bitmap = [];
    private DataRowVersion[] _versions = [];
    private long[] _states = [];
    private DataRow[] _modified = [];
    private object[][] _records = [];
    private int _recordCount;
    private byte[] _compressed = [];

    /// <summary>Accumulates the streams of tagged values in schema messages, written between blocks.</summary>
    public ColumnValues Scratch => _values;

    /// <summary>Writes rows <paramref name="start"/> to <paramref name="start"/> + <paramref name="count"/> of <paramref name="rows"/> as one block.</summary>
    public void WriteBlock(ref WireWriter writer, TableWriteContext context, DataRow[] rows, int start, int count, int block)
    {
        try
        {
            EnsureCapacity(count);
            var modifiedCount = 0;
            var allUnchanged = true;
            var anyErrors = false;
            for (var i = 0; i < count; i++)
            {
                var row = rows[start + i];
                var wire = row.RowState switch
                {
                    DataRowState.Unchanged => WireRowState.Unchanged,
                    DataRowState.Added => WireRowState.Added,
                    DataRowState.Modified => WireRowState.Modified,
                    DataRowState.Deleted => WireRowState.Deleted,
                    _ => Throw.Invalid<WireRowState>("A detached row cannot be written."),
                };
                _states[i] = (long)wire;
                allUnchanged &= wire == WireRowState.Unchanged;
                anyErrors |= row.HasErrors;
                _versions[i] = wire == WireRowState.Deleted ? DataRowVersion.Original : DataRowVersion.Current;
                if (wire == WireRowState.Modified)
                {
                    _modified[modifiedCount++] = row;
                }
            }

            var token = BeginBlock(ref writer, context, count, writeStates: !allUnchanged);
            WriteColumns(ref writer, context, BlockField.Column, new CurrentCells(rows, start, _versions), count);
            if (modifiedCount > 0)
            {
                WriteColumns(ref writer, context, BlockField.Original, new OriginalCells(_modified), modifiedCount);
                Array.Clear(_modified, 0, modifiedCount);
            }

            if (anyErrors)
            {
                WriteErrors(ref writer, rows, start, count);
            }

            End(ref writer, context, token);
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, null, block);
        }
    }

    /// <summary>
    /// Reads the reader's next records, up to <paramref name="rowsPerBlock"/> or until their strings and byte arrays
    /// reach about <paramref name="byteBudget"/> bytes; returns how many (0 at the end of the result set).
    /// </summary>
    public int ReadRecords(IDataReader reader, int rowsPerBlock, long byteBudget)
    {
        var fields = reader.FieldCount;
        long bytes = 0;
        _recordCount = 0;
        while (_recordCount < rowsPerBlock && bytes < byteBudget && reader.Read())
        {
            if (_recordCount == _records.Length)
            {
                Array.Resize(ref _records, Math.Min(rowsPerBlock, Math.Max(16, _records.Length * 2)));
            }

            var record = _records[_recordCount];
            if (record is null || record.Length != fields)
            {
                record = _records[_recordCount] = new object[fields];
            }

            reader.GetValues(record);
            _recordCount++;
            bytes += VariableBytes(record);
        }

        return _recordCount;
    }

    /// <summary>Writes the records read last (<see cref="ReadRecords"/>) as one block.</summary>
    public void WriteRecords(ref WireWriter writer, TableWriteContext context, int block)
    {
        var count = _recordCount;
        try
        {
            EnsureCapacity(count);
            Array.Clear(_states, 0, count);
            var token = BeginBlock(ref writer, context, count, writeStates: false);
            WriteColumns(ref writer, context, BlockField.Column, new RecordCells(_records), count);
            End(ref writer, context, token);
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, null, block);
        }
    }

    private MessageToken BeginBlock(ref WireWriter writer, TableWriteContext context, int count, bool writeStates)
    {
        // The table's previous block says how large this one will be; the first is guessed at a few bytes a cell.
        var hint = context.LastBlockBytes > 0 ? context.LastBlockBytes : (int)Math.Min(int.MaxValue, 16 + (3L * count * (context.Codecs.Length + 1)));
        var token = writer.BeginMessage(PayloadField.Rows, hint);
        writer.UInt(BlockField.RowCount, count);
        if (context.Index > 0)
        {
            writer.UInt(BlockField.Table, context.Index);
        }

        // A block whose columns carry nothing always carries its row states, so each row costs a byte and a reader
        // can hold the row count to the block's size.
        if (writeStates || !context.CarriesValues)
        {
            writer.Packed(BlockField.States, _states.AsSpan(0, count), zigzag: false);
        }

        return token;
    }

    // The raw block's length is the next block's size hint; the block is then compressed in place when that pays.
    private void End(ref WireWriter writer, TableWriteContext context, MessageToken token)
    {
        var length = context.LastBlockBytes = writer.EndMessage(token);
        CompressedBlock.TryCompress(ref writer, token, length, context.BlockCodec, context.BlockLevel, ref _compressed);
    }

    private void WriteColumns<TCells>(ref WireWriter writer, TableWriteContext context, int field, TCells cells, int count)
        where TCells : struct, ICells
    {
        var bitmapLength = (count + 7) >> 3;
        var columns = context.Table.Columns;
        for (var c = 0; c < context.Codecs.Length; c++)
        {
            var column = columns[c];
            var codec = context.Codecs[c];
            _values.Clear();
            Array.Clear(_bitmap, 0, bitmapLength);
            var anyNull = false;
            try
            {
                // Expression columns are recomputed by the reader: their values never travel.
                if (column.Expression.Length == 0)
                {
                    for (var i = 0; i < count; i++)
                    {
                        var value = cells.Get(i, column);
                        if (value is null || codec.IsNull(value))
                        {
                            _bitmap[i >> 3] |= (byte)(1 << (i & 7));
                            anyNull = true;
                        }
                        else
                        {
                            codec.Append(_values, value);
                        }
                    }
                }

                ColumnDataCodec.Write(ref writer, field, _values, anyNull ? _bitmap.AsSpan(0, bitmapLength) : []);
            }
            catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
            {
                throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, column.ColumnName, null);
            }
        }

        _values.Clear();
    }

    private static void WriteErrors(ref WireWriter writer, DataRow[] rows, int start, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var row = rows[start + i];
            if (!row.HasErrors)
            {
                continue;
            }

            var token = writer.BeginMessage(BlockField.Error, 16);
            writer.UInt(RowErrorField.Row, i);
            if (row.RowError.Length > 0)
            {
                writer.String(RowErrorField.Text, row.RowError);
            }

            var inError = row.GetColumnsInError();
            if (inError.Length > 0)
            {
                var ordinals = writer.BeginMessage(RowErrorField.Columns, inError.Length);
                foreach (var column in inError)
                {
                    writer.Varint((uint)column.Ordinal);
                }

                writer.EndMessage(ordinals);
                foreach (var column in inError)
                {
                    writer.String(RowErrorField.ColumnTexts, row.GetColumnError(column));
                }
            }

            writer.EndMessage(token);
        }
    }

    // Roughly what a record's variable-length values will take on the wire (UTF-16 length stands in for UTF-8).
    private static long VariableBytes(object[] record)
    {
        long bytes = 0;
        foreach (var value in record)
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

    private void EnsureCapacity(int count)
    {
        if (_states.Length < count)
        {
            _versions = new DataRowVersion[count];
            _states = new long[count];
            _modified = new DataRow[count];
        }

        if (_bitmap.Length < (count + 7) >> 3)
        {
            _bitmap = new byte[(count + 7) >> 3];
        }
    }

    /// <summary>Where a block's cells come from; a struct per source, so the column loop is compiled for each.</summary>
    private interface ICells
    {
        object? Get(int row, DataColumn column);
    }

    private readonly struct CurrentCells(DataRow[] rows, int start, DataRowVersion[] versions) : ICells
    {
        public object? Get(int row, DataColumn column) => rows[start + row][column, versions[row]];
    }

    private readonly struct OriginalCells(DataRow[] rows) : ICells
    {
        public object? Get(int row, DataColumn column) => rows[row][column, DataRowVersion.Original];
    }

    private readonly struct RecordCells(object[][] records) : ICells
    {
        public object? Get(int row, DataColumn column) => records[row][column.Ordinal];
    }
}
