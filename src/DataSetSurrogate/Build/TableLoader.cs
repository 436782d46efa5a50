using System.Data;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Rows;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate.Build;

/// <summary>
/// Loads row blocks into one DataTable by the fastest public path: columns typed (and DateTimeMode set) before data,
/// load mode on, one reused object[] per table, rows added per state, no expressions, read-only flags or
/// constraints until the end.
/// </summary>
internal sealed class TableLoader
{
    private readonly ColumnCodec?[] _codecs;
    private readonly int[] _targetOrdinal;
    private readonly object?[] _values;
    private readonly object?[] _originals;
    private readonly DecodedBlock _block = new();
    private readonly SurrogateOptions _options;
    private readonly bool _usePrimaryKeyFreePath;
    private DataColumn[] _nonNullable = [];
    private DataRow[] _blockRows = [];
    private int _blockIndex;
    private int _minimumCapacity;

    public TableLoader(DataTable table, TableModel model, bool created, SurrogateOptions options)
    {
        Table = table;
        Model = model;
        _options = options;
        Created = created;
        _codecs = new ColumnCodec?[model.Columns.Count];
        _targetOrdinal = new int[model.Columns.Count];
        for (var i = 0; i < model.Columns.Count; i++)
        {
            var column = model.Columns[i];
            var target = created ? TableFactory.AddColumn(table, column, options) : Match(table, column, options);
            _targetOrdinal[i] = target.Ordinal;
            // Expression columns carry no values: they are recomputed once the load is done.
            _codecs[i] = column.Expression is null ? ColumnCodecFor(target, options) : null;
        }

        _values = new object?[table.Columns.Count];
        _originals = new object?[table.Columns.Count];
        _usePrimaryKeyFreePath = table.PrimaryKey.Length == 0;
        ComputedUnitsPerRow = created ? DerivedWork.PerRow(model) : 0;
    }

    /// <summary>What each row costs in computed cells (expression columns of a table made from the payload).</summary>
    public int ComputedUnitsPerRow { get; }

    public DataTable Table { get; }

    public TableModel Model { get; }

    /// <summary>True when the table was created from the payload (not a table of the caller's target).</summary>
    public bool Created { get; }

    /// <summary>
    /// Sizes the storage from the writer's hint, capped by what the payload could really hold; the table's own
    /// MinimumCapacity (the payload's, or the declared table's) is set back at the end, when it no longer allocates.
    /// </summary>
    /// <remarks>
    /// Pre-sizing reserves a slot in every column for every row, so the cap is rows × columns ≤ payload bytes (a
    /// non-null value costs at least a byte): what a hint can reserve stays a small multiple of the payload.
    /// </remarks>
    public void BeginLoad(long payloadBytes)
    {
        _minimumCapacity = Created ? Model.MinimumCapacity : Table.MinimumCapacity;
        var affordable = payloadBytes / Math.Max(1, Table.Columns.Count);
        var capacity = Math.Min(Model.RecordCountHint, Math.Min(_options.MaxRows * 2, affordable));
        Table.MinimumCapacity = (int)Math.Clamp(capacity, 50, int.MaxValue);

        // Non-null columns are made nullable for the load and set back after it (RestoreNonNullable): a lone table
        // checks such columns on every row added, and a DataSet's EnforceConstraints pass builds a sorted index per
        // non-null column to look for nulls, while the AllowDBNull setter checks with one scan of the rows.
        _nonNullable = [.. Table.Columns.Cast<DataColumn>().Where(c => !c.AllowDBNull)];
        foreach (var column in _nonNullable)
        {
            column.AllowDBNull = true;
        }

        Table.BeginLoadData();
    }

    /// <summary>The target column for a payload column ordinal (checked: ordinals come from the payload).</summary>
    public DataColumn TargetColumn(int ordinal) =>
        (uint)ordinal < (uint)_targetOrdinal.Length ? Table.Columns[_targetOrdinal[ordinal]]
            : Throw.Invalid<DataColumn>($"The payload refers to column {ordinal} of table '{Table.TableName}', which does not exist.");

    public DataColumn[] TargetColumns(int[] ordinals) => Array.ConvertAll(ordinals, TargetColumn);

    public int ReadBlock(ref ProtoReader.State state, SurrogateOptions options, long rowBudget, int tableIndex, DerivedWork derivedWork, Blocks.BlockInflater inflater, long payloadBytes)
    {
        _block.Read(ref state, _codecs, options, rowBudget, tableIndex, Model, inflater, payloadBytes);
        derivedWork.AddRows(_block.RowCount, ComputedUnitsPerRow);
        if (_blockRows.Length < _block.RowCount && _block.Errors.Count > 0)
        {
            _blockRows = new DataRow[_block.RowCount];
        }

        var modified = 0;
        for (var row = 0; row < _block.RowCount; row++)
        {
            var dataRow = AddRow(row, ref modified);
            if (_block.Errors.Count > 0)
            {
                _blockRows[row] = dataRow;
            }
        }

        foreach (var error in _block.Errors)
        {
            var dataRow = _blockRows[error.Row];
            if (error.Text is not null)
            {
                dataRow.RowError = error.Text;
            }

            for (var c = 0; c < error.Columns.Length; c++)
            {
                dataRow.SetColumnError(_targetOrdinal[error.Columns[c]], error.ColumnTexts[c]);
            }
        }

        if (_block.Errors.Count > 0)
        {
            Array.Clear(_blockRows, 0, _block.RowCount);
        }

        _blockIndex++;
        return _block.RowCount;
    }

    public int BlockIndex => _blockIndex;

    public void EndLoad()
    {
        RestoreAutoIncrementCounters();
        Table.EndLoadData();
        Table.MinimumCapacity = _minimumCapacity;
    }

    /// <summary>
    /// Sets AllowDBNull back to false where the load lifted it: after constraints are enforced again (the setter then
    /// refuses a null as DataSet would), and after a failed load, so the schema stays the caller's.
    /// </summary>
    public void RestoreNonNullable()
    {
        var columns = _nonNullable;
        _nonNullable = [];
        foreach (var column in columns)
        {
            column.AllowDBNull = false;
        }
    }

    private DataRow AddRow(int row, ref int modified)
    {
        Fill(_values, row, original: false);
        DataRow dataRow;
        switch (_block.State(row))
        {
            case WireRowState.Added:
                return Table.Rows.Add(_values);
            case WireRowState.Modified:
                Fill(_originals, modified++, original: true);
                dataRow = Table.Rows.Add(_originals);
                dataRow.AcceptChanges();
                dataRow.ItemArray = _values;
                return dataRow;
            case WireRowState.Deleted:
                dataRow = Table.Rows.Add(_values);
                dataRow.AcceptChanges();
                dataRow.Delete();
                return dataRow;
            default:
                if (_usePrimaryKeyFreePath)
                {
                    // Without a primary key this makes an Unchanged row in one step (no key probe, no upsert).
                    return Table.LoadDataRow(_values, LoadOption.OverwriteChanges);
                }

                dataRow = Table.Rows.Add(_values);
                dataRow.AcceptChanges();
                return dataRow;
        }
    }

    private void Fill(object?[] values, int row, bool original)
    {
        for (var i = 0; i < _codecs.Length; i++)
        {
            var codec = _codecs[i];
            if (codec is null)
            {
                values[_targetOrdinal[i]] = null;
                continue;
            }

            var cursor = original ? _block.Original(i) : _block.Column(i);
            try
            {
                values[_targetOrdinal[i]] = cursor.IsNull(row) ? codec.NullValue : codec.Take(cursor);
            }
            catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
            {
                throw DataSetSurrogateException.Wrap(ex, Table.TableName, Model.Columns[i].Name, _blockIndex);
            }
        }
    }

    // The runtime keeps the next AutoIncrement value private; a row carrying (next - step) moves it exactly there,
    // and removing that row again leaves the table as loaded.
    private void RestoreAutoIncrementCounters()
    {
        object?[]? probe = null;
        for (var i = 0; i < Model.Columns.Count; i++)
        {
            var model = Model.Columns[i];
            var column = Table.Columns[_targetOrdinal[i]];
            if (!column.AutoIncrement || model.AutoIncrementNext is not long next || next == column.AutoIncrementSeed)
            {
                continue;
            }

            long previous;
            try
            {
                previous = checked(next - column.AutoIncrementStep);
            }
            catch (OverflowException)
            {
                continue;
            }

            if (probe is null)
            {
                // DBNull (not null) everywhere else: an explicit null leaves the other counters untouched.
                probe = new object?[Table.Columns.Count];
                Array.Fill(probe, DBNull.Value);
            }

            probe[column.Ordinal] = Convert.ChangeType(previous, column.DataType, System.Globalization.CultureInfo.InvariantCulture);
        }

        if (probe is not null)
        {
            Table.Rows.Remove(Table.Rows.Add(probe));
        }
    }

    private static DataColumn Match(DataTable table, ColumnModel model, SurrogateOptions options)
    {
        var column = table.Columns[model.Name];
        if (column is null)
        {
            Throw.Column("The payload has a column the target table does not declare.", table.TableName, model.Name);
        }

        var codec = ColumnCodecFor(column, options);
        if (codec.Tag != model.Tag)
        {
            Throw.Column($"The payload's column type (tag {(int)model.Tag}) does not match the target's {column.DataType}.", table.TableName, model.Name);
        }

        return column;
    }

    private static ColumnCodec ColumnCodecFor(DataColumn column, SurrogateOptions options)
    {
        var type = column.DataType;
        var codec = ColumnCodecs.ForColumnType(type, options) ?? (type.IsEnum ? new EnumColumnCodec(type, null) : null);
        return codec ?? Throw.Invalid<ColumnCodec>($"The target column '{column.ColumnName}' has type '{type}', which the codec cannot read: {ColumnCodecs.RefusalReason(type)}.");
    }
}
