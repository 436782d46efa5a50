using System.Buffers;
using System.Data;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Wire;

namespace Surrogate.Rows;

/// <summary>
/// Writes a table's rows as columnar RowBlock messages. Each row's primary version is its Current values (Original
/// for Deleted rows); Modified rows add their Original values in a second set of columns. Rows inside BeginEdit
/// travel with their Current values: the Proposed version is dropped, as DataSet XML drops it.
/// </summary>
internal sealed class RowBlockWriter
{
    // One writer (with its row, state and value arrays) is kept per thread, so a payload allocates no block buffers.
    [ThreadStatic]
    private static RowBlockWriter? t_cached;

    private readonly ColumnValues _values = new();
    private readonly int _rowsPerBlock;
    private byte[] _bitmap = new byte[512];
    private DataRow[] _rows = [];
    private DataRowVersion[] _versions = [];
    private long[] _states = [];
    private DataRow[] _modified = [];

    private RowBlockWriter(int rowsPerBlock) => _rowsPerBlock = rowsPerBlock;

    public static RowBlockWriter Rent(SurrogateOptions options)
    {
        var rowsPerBlock = Math.Clamp(options.RowsPerBlock, 1, SurrogateOptions.MaxRowsPerBlock);
        var cached = t_cached;
        t_cached = null;
        return cached is not null && cached._rowsPerBlock == rowsPerBlock ? cached : new RowBlockWriter(rowsPerBlock);
    }

    /// <summary>Keeps this writer for the thread's next payload.</summary>
    public void Return()
    {
        _values.Clear();
        t_cached = this;
    }

    /// <summary>Writes every row of the table as RowBlock fields of the payload.</summary>
    public void WriteTableRows(ref ProtoWriter.State payload, TableWriteContext context)
    {
        // CopyTo walks the row tree once; enumerating it costs about twice as much per row (an interface call and a
        // tree step per MoveNext), as much as reading every cell of a two-column table.
        var total = context.Table.Rows.Count;
        var all = ArrayPool<DataRow>.Shared.Rent(total);
        EnsureCapacity(Math.Min(_rowsPerBlock, total));
        var buffer = WireBuffer.Rent();
        try
        {
            context.Table.Rows.CopyTo(all, 0);
            for (int start = 0, block = 0; start < total; start += _rowsPerBlock, block++)
            {
                var count = Math.Min(_rowsPerBlock, total - start);
                Array.Copy(all, start, _rows, 0, count);
                WriteBlockField(ref payload, buffer, context, count, block);
            }
        }
        finally
        {
            buffer.Return();
            // Drop row references so neither the pool nor a cached writer keeps tables alive.
            Array.Clear(all, 0, total);
            ArrayPool<DataRow>.Shared.Return(all);
            Array.Clear(_rows, 0, Math.Min(_rows.Length, total));
            Array.Clear(_modified, 0, Math.Min(_modified.Length, total));
        }
    }

    private void WriteBlockField(ref ProtoWriter.State payload, WireBuffer buffer, TableWriteContext context, int count, int block)
    {
        try
        {
            buffer.Clear();
            WriteBlock(buffer, context, count);
            buffer.EmitTo(ref payload, PayloadField.Rows);
        }
        catch (DataSetSurrogateException ex) when (ex.RowBlock is null)
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, null, block);
        }
    }

    private void WriteBlock(WireBuffer buffer, TableWriteContext context, int count)
    {
        buffer.UInt(BlockField.RowCount, count);
        if (context.Index > 0)
        {
            buffer.UInt(BlockField.Table, context.Index);
        }

        var modifiedCount = 0;
        var allUnchanged = true;
        var anyErrors = false;
        for (var i = 0; i < count; i++)
        {
            var row = _rows[i];
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

        if (!allUnchanged || !context.CarriesValues)
        {
            buffer.Packed(BlockField.States, _states.AsSpan(0, count), zigzag: false);
        }

        WriteColumns(buffer, context, BlockField.Column, _rows, _versions, count, fixedVersion: null);
        if (modifiedCount > 0)
        {
            WriteColumns(buffer, context, BlockField.Original, _modified, _versions, modifiedCount, DataRowVersion.Original);
        }

        if (anyErrors)
        {
            WriteErrors(buffer, count);
        }
    }

    private void WriteColumns(WireBuffer buffer, TableWriteContext context, int field, DataRow[] rows, DataRowVersion[] versions, int count, DataRowVersion? fixedVersion)
    {
        var bitmapLength = (count + 7) >> 3;
        foreach (DataColumn column in context.Table.Columns)
        {
            var codec = context.Codecs[column.Ordinal];
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
                        var value = rows[i][column, fixedVersion ?? versions[i]];
                        if (codec.IsNull(value))
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

                var bitmap = anyNull ? _bitmap.AsSpan(0, bitmapLength) : [];
                ColumnDataCodec.Write(buffer, field, _values, bitmap);
            }
            catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
            {
                throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, column.ColumnName, null);
            }
        }
    }

    private void WriteErrors(WireBuffer buffer, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var row = _rows[i];
            if (!row.HasErrors)
            {
                continue;
            }

            var token = buffer.BeginMessage(BlockField.Error, 16);
            buffer.UInt(RowErrorField.Row, i);
            if (row.RowError.Length > 0)
            {
                buffer.String(RowErrorField.Text, row.RowError);
            }

            var inError = row.GetColumnsInError();
            if (inError.Length > 0)
            {
                var ordinals = new long[inError.Length];
                for (var c = 0; c < inError.Length; c++)
                {
                    ordinals[c] = inError[c].Ordinal;
                }

                buffer.Packed(RowErrorField.Columns, ordinals, zigzag: false);
                foreach (var column in inError)
                {
                    buffer.String(RowErrorField.ColumnTexts, row.GetColumnError(column));
                }
            }

            buffer.EndMessage(token);
        }
    }

    private void EnsureCapacity(int count)
    {
        if (_rows.Length >= count)
        {
            return;
        }

        var size = Math.Max(count, Math.Min(_rowsPerBlock, Math.Max(16, _rows.Length * 2)));
        Array.Resize(ref _rows, size);
        Array.Resize(ref _versions, size);
        Array.Resize(ref _states, size);
        Array.Resize(ref _modified, size);
        if (_bitmap.Length < (size + 7) >> 3)
        {
            _bitmap = new byte[(size + 7) >> 3];
        }
    }
}
