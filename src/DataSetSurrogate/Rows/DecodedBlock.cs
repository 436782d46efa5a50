using ProtoBuf;
using Surrogate.Blocks;
using Surrogate.Columns;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate.Rows;

/// <summary>One decoded RowBlock: row states, a cursor per column, a cursor per column over Modified rows' originals, and errors.</summary>
internal sealed class DecodedBlock
{
    private long[] _states = [];
    private int _stateCount;
    private ColumnCursor[] _columns = [];
    private ColumnCursor[] _originals = [];

    public int RowCount { get; private set; }

    public int ModifiedCount { get; private set; }

    public List<RowErrorModel> Errors { get; } = [];

    public WireRowState State(int row) => _stateCount == 0 ? WireRowState.Unchanged : (WireRowState)_states[row];

    public ColumnCursor Column(int ordinal) => _columns[ordinal];

    public ColumnCursor Original(int ordinal) => _originals[ordinal];

    /// <summary>
    /// Reads a RowBlock message, raw or compressed (the reader is on its field header). <paramref name="rowBudget"/>
    /// is what the payload may still hold under MaxRows; it is checked before any per-row allocation.
    /// <paramref name="payloadBytes"/> is the payload's length read so far, which a compressed block's raw length is
    /// added to and held to MaxTotalBytes before it is decompressed.
    /// </summary>
    public void Read(ref ProtoReader.State state, IReadOnlyList<ColumnCodec?> codecs, SurrogateOptions options, long rowBudget, int tableIndex, TableModel schema, BlockInflater inflater, long payloadBytes)
    {
        RowCount = -1;
        ModifiedCount = 0;
        _stateCount = 0;
        Errors.Clear();
        EnsureCursors(ref _columns, codecs.Count);
        EnsureCursors(ref _originals, codecs.Count);
        var counts = default(FieldCounts);
        var token = state.StartSubItem();
        var start = state.GetPosition();
        var field = state.ReadFieldHeader();
        long bytes;
        if (field == BlockField.Codec)
        {
            var body = inflater.Inflate(ref state, options, payloadBytes);
            state.EndSubItem(token);
            var inner = ProtoReader.State.Create(body, null, null);
            try
            {
                ReadFields(ref inner, inner.ReadFieldHeader(), codecs, options, rowBudget, schema, ref counts);
            }
            finally
            {
                inner.Dispose();
            }

            bytes = body.Length;
        }
        else
        {
            ReadFields(ref state, field, codecs, options, rowBudget, schema, ref counts);
            state.EndSubItem(token);
            bytes = state.GetPosition() - start;
        }

        CheckSize(RowCount, bytes);
        if (counts.Table != tableIndex)
        {
            Throw.Invalid($"A row block names table {counts.Table} where table {tableIndex} is being read.");
        }

        if (RowCount < 0 || (RowCount > 0 && counts.Columns != codecs.Count) || (ModifiedCount > 0 && counts.Originals != codecs.Count))
        {
            Throw.Invalid("A row block does not carry every column.");
        }
    }

    private void ReadFields(ref ProtoReader.State state, int field, IReadOnlyList<ColumnCodec?> codecs, SurrogateOptions options, long rowBudget, TableModel schema, ref FieldCounts counts)
    {
        for (; field > 0; field = state.ReadFieldHeader())
        {
            if (field == BlockField.RowCount)
            {
                RowCount = ProtoRead.Int32(ref state, 0, SurrogateOptions.MaxRowsPerBlock, "row block row count");
                if (RowCount > rowBudget)
                {
                    Throw.Limit("rows", RowCount, options.MaxRows, nameof(SurrogateOptions.MaxRows));
                }

                continue;
            }

            if (RowCount < 0)
            {
                Throw.Invalid("A row block does not start with its row count.");
            }

            switch (field)
            {
                case BlockField.States:
                    ReadStates(ref state);
                    break;
                case BlockField.Column:
                    ReadColumn(ref state, _columns, ref counts.Columns, RowCount, schema, options);
                    break;
                case BlockField.Original:
                    ReadColumn(ref state, _originals, ref counts.Originals, ModifiedCount, schema, options);
                    break;
                case BlockField.Table:
                    counts.Table = ProtoRead.Int32(ref state, 0, int.MaxValue, "row block table");
                    break;
                case BlockField.Error:
                    Errors.Add(RowErrorModel.Read(ref state, RowCount, codecs.Count, options));
                    break;
                case BlockField.Codec or BlockField.RawLength or BlockField.Compressed:
                    // Only a block's first field may say it is compressed, and a compressed block's data is a raw block.
                    Throw.Invalid("A row block's compression fields are not where a compressed block has them.");
                    break;
                default:
                    state.SkipField();
                    break;
            }
        }
    }

    // Every row costs its block at least one bit (a null-bitmap bit, a value or a state), so the rows a payload can
    // make, and the work and memory they take, stay proportional to its size. Checked before any row is built.
    private static void CheckSize(int rows, long bytes)
    {
        if (rows > bytes * 8)
        {
            Throw.Invalid($"A row block claims {rows} rows in {bytes} bytes; every row needs at least one bit of its block.");
        }
    }

    // The state vector grows as its values arrive (not from the row count a block claims), like every other stream.
    private void ReadStates(ref ProtoReader.State state)
    {
        ProtoRead.Packed(ref state, WireType.Varint, ref _states, ref _stateCount, RowCount, "row states");
        if (_stateCount != RowCount)
        {
            Throw.Invalid("A row block's state vector does not match its row count.");
        }

        for (var i = 0; i < _stateCount; i++)
        {
            if ((ulong)_states[i] > (ulong)WireRowState.Deleted)
            {
                Throw.Invalid($"A row block holds an unknown row state {_states[i]}.");
            }

            if (_states[i] == (long)WireRowState.Modified)
            {
                ModifiedCount++;
            }
        }
    }

    private static void ReadColumn(ref ProtoReader.State state, ColumnCursor[] cursors, ref int index, int rows, TableModel table, SurrogateOptions options)
    {
        if (index >= table.Columns.Count)
        {
            Throw.Invalid("A row block carries more columns than its table.");
        }

        try
        {
            ColumnDataCodec.Read(ref state, cursors[index], rows, options);
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, null, table.Columns[index].Name, null);
        }

        index++;
    }

    /// <summary>What a block's fields add up to: columns and originals carried, and the table it names.</summary>
    private struct FieldCounts
    {
        public int Columns;
        public int Originals;
        public int Table;
    }

    private static void EnsureCursors(ref ColumnCursor[] cursors, int count)
    {
        if (cursors.Length >= count)
        {
            return;
        }

        var old = cursors.Length;
        Array.Resize(ref cursors, count);
        for (var i = old; i < count; i++)
        {
            cursors[i] = new ColumnCursor();
        }
    }
}

/// <summary>A row's error text and column errors, by row index within its block.</summary>
internal sealed class RowErrorModel
{
    public int Row { get; private set; }

    public string? Text { get; private set; }

    public int[] Columns { get; private set; } = [];

    public List<string> ColumnTexts { get; } = [];

    public static RowErrorModel Read(ref ProtoReader.State state, int rows, int columns, SurrogateOptions options)
    {
        var error = new RowErrorModel();
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case RowErrorField.Row: error.Row = ProtoRead.Int32(ref state, 0, rows - 1, "error row"); break;
                case RowErrorField.Text: error.Text = ProtoRead.String(ref state, options.MaxStringLength, "row error", nameof(SurrogateOptions.MaxStringLength)); break;
                case RowErrorField.Columns: error.Columns = ProtoRead.PackedOrdinals(ref state, columns, "error column"); break;
                case RowErrorField.ColumnTexts:
                    if (error.ColumnTexts.Count >= columns)
                    {
                        Throw.Invalid("A row error lists more column errors than its table has columns.");
                    }

                    error.ColumnTexts.Add(ProtoRead.String(ref state, options.MaxStringLength, "column error", nameof(SurrogateOptions.MaxStringLength)));
                    break;
                default: state.SkipField(); break;
            }
        }

        state.EndSubItem(token);
        if (error.Columns.Length != error.ColumnTexts.Count)
        {
            Throw.Invalid("A row error's column list and texts differ in length.");
        }

        return error;
    }
}
