using System.Collections;
using System.Data;
using System.Data.Common;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate.Reader;

/// <summary>
/// A forward-only reader over a payload: one result set per table, one row block in memory at a time. It shows each
/// row's current values; Deleted rows are skipped (as <see cref="DataTable.CreateDataReader"/> does), and expression
/// columns read as DBNull (their values never travel). Moving to a row only notes where each of its values starts in
/// the block's streams; a value is decoded when it is asked for, by a typed getter without a box.
/// </summary>
internal sealed partial class SurrogateDataReader : DbDataReader
{
    private readonly FrameSource _source;
    private readonly SurrogateOptions _options;
    private readonly DecodedBlock _block = new();
    private readonly Blocks.BlockInflater _inflater = new();
    private readonly Build.DerivedWork _derivedWork = new(0);
    private readonly FieldHandler<FrameKind> _handle;
    private TableModel? _table;
    private TableModel? _pendingTable;
    private ColumnCodec?[] _codecs = [];
    private ColumnCursor.Position[] _positions = [];
    private int _computedUnitsPerRow;
    private int _row = -1;
    private bool _onRow;
    private bool _blockLoaded;
    private bool _readAny;
    private bool _ended;
    private bool _closed;
    private long _rows;
    private int _blockIndex;
    private int _tableIndex = -1;

    public SurrogateDataReader(FrameSource source, SurrogateOptions options)
    {
        _source = source;
        _options = options;
        _handle = Handle;
        Guard(() =>
        {
            while (_pendingTable is null && Fetch())
            {
            }

            if (_pendingTable is not null)
            {
                StartTable();
            }
        });
    }

    private enum FrameKind
    {
        Other,
        Table,
        Rows,
        Tail,
    }

    public override int FieldCount => _table?.Columns.Count ?? 0;

    public override bool HasRows => Guard(() => _readAny || (_row + 1 < _block.RowCount && _blockLoaded) || PeekRows());

    public override bool IsClosed => _closed;

    public override int RecordsAffected => -1;

    public override int Depth => 0;

    public override bool Read()
    {
        // Called once per row: no delegate, so reading a row allocates nothing of its own.
        try
        {
            return ReadCore();
        }
        catch (Exception ex) when (ShouldWrap(ex))
        {
            throw Wrap(ex);
        }
    }

    public override bool NextResult() => Guard(() =>
    {
        while (ReadCore())
        {
        }

        if (_pendingTable is null)
        {
            return false;
        }

        StartTable();
        return true;
    });

    public override void Close()
    {
        if (!_closed)
        {
            _closed = true;
            _source.Dispose();
        }
    }

    public override DataTable GetSchemaTable() => SchemaTableBuilder.Build(Table, _codecs);

    public override IEnumerator GetEnumerator() => new DbEnumerator(this, closeReader: false);

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Close();
        }

        base.Dispose(disposing);
    }

    private TableModel Table => _table ?? Throw.Invalid<TableModel>("The reader has no current result set.");

    private bool ReadCore()
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        _onRow = false;
        while (true)
        {
            if (_blockLoaded && _row + 1 < _block.RowCount)
            {
                _row++;
                MarkRow();
                if (_block.State(_row) == WireRowState.Deleted)
                {
                    continue;
                }

                _readAny = true;
                _onRow = true;
                return true;
            }

            _blockLoaded = false;
            if (_pendingTable is not null || _ended || !Fetch())
            {
                return false;
            }
        }
    }

    private bool PeekRows()
    {
        while (!_blockLoaded && _pendingTable is null && !_ended && Fetch())
        {
        }

        return _blockLoaded && _block.RowCount > 0;
    }

    private void StartTable()
    {
        _table = _pendingTable;
        _pendingTable = null;
        _codecs = new ColumnCodec?[_table!.Columns.Count];
        for (var i = 0; i < _codecs.Length; i++)
        {
            var column = _table.Columns[i];
            _codecs[i] = column.Expression is not null ? null
                : column.Tag == TypeTag.Extension ? ColumnCodecs.ForExtension(_options.FindExtra(column.ExtensionKey!) ?? Throw.Invalid<SurrogateColumnType>($"Column '{column.Name}' has extension type key '{column.ExtensionKey}', which SurrogateOptions.ExtraColumnTypes does not register."))
                : ColumnCodecs.ForTag(column.Tag) ?? Throw.Invalid<ColumnCodec>($"Column '{column.Name}' has unknown type tag {(int)column.Tag}.");
        }

        _positions = new ColumnCursor.Position[_codecs.Length];
        _computedUnitsPerRow = Build.DerivedWork.PerRow(_table);
        _row = -1;
        _onRow = false;
        _blockIndex = 0;
        _readAny = false;
        _blockLoaded = false;
    }

    /// <summary>Reads the next top-level field: a table starts the next result set, rows load a block.</summary>
    private bool Fetch()
    {
        if (!_source.Next(_handle, out var kind))
        {
            Throw.Invalid("The payload is truncated: it ends before its tail.");
        }

        if (kind == FrameKind.Tail)
        {
            _ended = true;
            return false;
        }

        return true;
    }

    private FrameKind Handle(ref ProtoReader.State state, int field)
    {
        switch (field)
        {
            case PayloadField.Header:
                state.SkipField();
                return FrameKind.Other;
            case PayloadField.Tail:
                state.SkipField();
                return FrameKind.Tail;
            case PayloadField.Table:
                var constraints = 0;
                _pendingTable = SchemaReader.ReadTable(ref state, _options, ref constraints);
                _tableIndex++;
                return FrameKind.Table;
            case PayloadField.Rows:
                var table = _table ?? Throw.Invalid<TableModel>("The payload has rows before any table.");
                _block.Read(ref state, _codecs, _options, _options.MaxRows - _rows, _tableIndex, table, _inflater, _source.BytesRead);
                // Expression columns show as DBNull but a consumer still visits each cell: held to the same rule, over
                // the payload's bytes with compressed blocks at their raw length.
                _derivedWork.PayloadBytes = _source.BytesRead + _inflater.Expansion;
                _derivedWork.AddRows(_block.RowCount, _computedUnitsPerRow);
                _rows += _block.RowCount;
                _row = -1;
                _blockLoaded = true;
                _blockIndex++;
                return FrameKind.Rows;
            default:
                return Throw.Invalid<FrameKind>($"The payload holds an unknown field {field}.");
        }
    }

    // Notes where the row's value starts in each column's streams and moves past it, so the streams are checked (a
    // stream shorter than its rows fails here) and the next row starts after it; nothing is built.
    private void MarkRow()
    {
        for (var i = 0; i < _codecs.Length; i++)
        {
            var codec = _codecs[i];
            var cursor = _block.Column(i);
            if (codec is not null && !cursor.IsNull(_row))
            {
                _positions[i] = cursor.At;
                codec.Skip(cursor);
            }
        }
    }

    private static bool ShouldWrap(Exception ex) => DataSetSurrogateException.IsInputFailure(ex);

    private DataSetSurrogateException Wrap(Exception ex) =>
        DataSetSurrogateException.Wrap(ex, _table?.Name, null, _blockLoaded ? _blockIndex - 1 : null);

    private T Guard<T>(Func<T> action)
    {
        try
        {
            return action();
        }
        catch (Exception ex) when (ShouldWrap(ex))
        {
            throw Wrap(ex);
        }
    }

    private void Guard(Action action) => Guard(() =>
    {
        action();
        return true;
    });
}
