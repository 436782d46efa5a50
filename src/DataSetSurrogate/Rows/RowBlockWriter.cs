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
    private readonly ColumnValues _values = new();
    private readonly int _rowsPerBlock;
    private byte[] _bitmap = new byte[512];
    private DataRow[] _rows = [];
    private DataRowVersion[] _versions = [];
    private long[] _states = [];
    private DataRow[] _modified = [];

    public RowBlockWriter(SurrogateOptions options) =>
        _rowsPerBlock = Math.Clamp(options.RowsPerBlock, 1, SurrogateOptions.MaxRowsPerBlock);

    /// <summary>Writes every row of the table as Frame{rows} fields of the payload.</summary>
    public void WriteTableRows(ref ProtoWriter.State payload, TableWriteContext context)
    {
        var block = 0;
        var count = 0;
        EnsureCapacity(Math.Min(_rowsPerBlock, context.Table.Rows.Count));
        foreach (DataRow row in context.Table.Rows)
        {
            _rows[count++] = row;
            if (count == _rowsPerBlock)
            {
                WriteBlockFrame(ref payload, context, count, block++);
                count = 0;
            }
        }

        if (count > 0)
        {
            WriteBlockFrame(ref payload, context, count, block);
        }

        Array.Clear(_rows);
        Array.Clear(_modified);
    }

    private void WriteBlockFrame(ref ProtoWriter.State payload, TableWriteContext context, int count, int block)
    {
        try
        {
            var args = (this, context, count);
            ProtoWrite.Message(ref payload, PayloadField.Frame, args, static (ref ProtoWriter.State frame, (RowBlockWriter W, TableWriteContext C, int N) a) =>
                ProtoWrite.Message(ref frame, FrameField.Rows, a, static (ref ProtoWriter.State s, (RowBlockWriter W, TableWriteContext C, int N) b) =>
                    b.W.WriteBlock(ref s, b.C, b.N)));
        }
        catch (DataSetSurrogateException ex) when (ex.RowBlock is null)
        {
            throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, null, block);
        }
    }

    private void WriteBlock(ref ProtoWriter.State state, TableWriteContext context, int count)
    {
        ProtoWrite.UInt(ref state, BlockField.RowCount, count);
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

        if (!allUnchanged)
        {
            ProtoWrite.PackedUInt(ref state, BlockField.States, _states.AsSpan(0, count));
        }

        WriteColumns(ref state, context, BlockField.Column, _rows, _versions, count, fixedVersion: null);
        if (modifiedCount > 0)
        {
            WriteColumns(ref state, context, BlockField.Original, _modified, _versions, modifiedCount, DataRowVersion.Original);
        }

        if (anyErrors)
        {
            WriteErrors(ref state, count);
        }
    }

    private void WriteColumns(ref ProtoWriter.State state, TableWriteContext context, int field, DataRow[] rows, DataRowVersion[] versions, int count, DataRowVersion? fixedVersion)
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

                var args = (_values, anyNull ? _bitmap.AsMemory(0, bitmapLength) : ReadOnlyMemory<byte>.Empty);
                ProtoWrite.Message(ref state, field, args, static (ref ProtoWriter.State s, (ColumnValues V, ReadOnlyMemory<byte> B) a) =>
                    ColumnDataCodec.Write(ref s, a.V, a.B.Span));
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                throw DataSetSurrogateException.Wrap(ex, context.Table.TableName, column.ColumnName, null);
            }
        }
    }

    private void WriteErrors(ref ProtoWriter.State state, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var row = _rows[i];
            if (!row.HasErrors)
            {
                continue;
            }

            ProtoWrite.Message(ref state, BlockField.Error, (row, i), static (ref ProtoWriter.State s, (DataRow Row, int Index) a) =>
            {
                ProtoWrite.UInt(ref s, RowErrorField.Row, a.Index);
                if (a.Row.RowError.Length > 0)
                {
                    ProtoWrite.String(ref s, RowErrorField.Text, StringColumnCodec.Checked(a.Row.RowError));
                }

                var inError = a.Row.GetColumnsInError();
                if (inError.Length == 0)
                {
                    return;
                }

                var ordinals = new long[inError.Length];
                for (var c = 0; c < inError.Length; c++)
                {
                    ordinals[c] = inError[c].Ordinal;
                }

                ProtoWrite.PackedUInt(ref s, RowErrorField.Columns, ordinals);
                foreach (var column in inError)
                {
                    ProtoWrite.String(ref s, RowErrorField.ColumnTexts, StringColumnCodec.Checked(a.Row.GetColumnError(column)));
                }
            });
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
