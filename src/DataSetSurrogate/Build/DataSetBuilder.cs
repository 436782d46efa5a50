using System.Data;
using Surrogate.Schema;

namespace Surrogate.Build;

/// <summary>
/// Builds the result from decoded schemas and row blocks. Tables the target declares (typed DataSets, caller-made tables) are used
/// as they are: their types, constraints and relations decide. Anything the target lacks is created from the payload.
/// Constraints, relations, read-only flags and expressions are applied after every row is in; then
/// EnforceConstraints is restored, which validates once (and throws ConstraintException as DataSet XML does).
/// </summary>
internal sealed class DataSetBuilder
{
    private readonly Func<DataSet>? _createDataSet;
    private readonly DataTable? _standalone;
    private DataSet? _dataSet;
    private readonly SurrogateOptions _options;
    private readonly List<TableLoader> _tables = [];
    private readonly List<(ForeignKeyConstraint Fk, Rule Delete, Rule Update, AcceptRejectRule Accept)> _suspendedRules = [];
    private readonly List<(DataColumn Column, string Expression, bool ReadOnly)> _suspendedColumns = [];
    private HeaderModel? _header;
    private TableLoader? _current;
    private long _rows;
    private readonly DerivedWork _derivedWork = new(0);
    private readonly Blocks.BlockInflater _inflater = new();
    private long _payloadBytes;

    /// <summary>Builds into the caller's DataSet.</summary>
    public DataSetBuilder(DataSet dataSet, SurrogateOptions options)
    {
        _options = options;
        Attach(dataSet);
    }

    /// <summary>
    /// Builds into a DataSet made once the header is read, under the payload's locale when that locale was a default
    /// (the culture current when the writer's DataSet was made), so the result's locale is the same default.
    /// </summary>
    public DataSetBuilder(Func<DataSet> createDataSet, SurrogateOptions options)
    {
        _createDataSet = createDataSet;
        _options = options;
    }

    /// <summary>Builds one table outside any DataSet (fresh or the caller's).</summary>
    public DataSetBuilder(DataTable table, SurrogateOptions options)
    {
        _standalone = table;
        _options = options;
        Suspend(table);
    }

    /// <summary>
    /// The payload's length, which bounds how much storage a size hint may reserve and how much derived work the
    /// payload may ask for (with its compressed row blocks counted at their raw length as they are read).
    /// </summary>
    public long PayloadBytes
    {
        get => _payloadBytes;
        set => _derivedWork.PayloadBytes = _payloadBytes = value;
    }

    public long RowBudget => _options.MaxRows - _rows;

    public int TableCount => _tables.Count;

    public TableLoader? Current => _current;

    /// <summary>The DataSet built into (made now if the payload had no header).</summary>
    public DataSet DataSet => _dataSet ?? Create(null);

    public void OnHeader(HeaderModel header)
    {
        _header = header;
        if (_standalone is not null)
        {
            return;
        }

        var dataSet = _dataSet ?? Create(header.Locale is not null && header.LocaleSet == false ? CultureSettings.Culture(header.Locale) : null);
        dataSet.DataSetName = header.DataSetName;
        dataSet.Namespace = header.Namespace;
        dataSet.Prefix = header.Prefix;
        dataSet.CaseSensitive = header.CaseSensitive;
        // A locale that was set is set again; a default one came with the DataSet, unless the DataSet was the caller's
        // and its locale differs, where the value matters more than the flag.
        if (header.Locale is not null && (header.LocaleSet != false || !string.Equals(dataSet.Locale.Name, header.Locale, StringComparison.Ordinal)))
        {
            dataSet.Locale = CultureSettings.Culture(header.Locale);
        }

        ExtendedPropertiesCodec.Apply(dataSet.ExtendedProperties, header.ExtendedProperties);
    }

    public void OnTable(TableModel model)
    {
        _current?.EndLoad();
        if (_tables.Count >= _options.MaxTables)
        {
            Throw.Limit("tables", _tables.Count + 1, _options.MaxTables, nameof(SurrogateOptions.MaxTables));
        }

        DataTable table;
        bool created;
        if (_standalone is not null)
        {
            if (_tables.Count > 0)
            {
                Throw.Invalid("The payload holds more than one table; a single table was expected.");
            }

            table = _standalone;
            created = table.Columns.Count == 0;
            if (created)
            {
                ApplyStandaloneTable(table, model, _header);
            }
        }
        else
        {
            var dataSet = DataSet;
            var existing = FindDeclaredTable(dataSet, model);
            created = existing is null;
            table = existing ?? TableFactory.CreateTable(model, dataSet);
        }

        if (table.Rows.Count > 0)
        {
            Throw.Invalid($"The target table '{table.TableName}' already has rows; it must be empty.");
        }

        try
        {
            _current = new TableLoader(table, model, created, _options);
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, model.Name, null, null);
        }

        _tables.Add(_current);
        _current.BeginLoad(PayloadBytes);
    }

    /// <summary>Reads one row block into the current table.</summary>
    public void ReadBlock(ref ProtoBuf.ProtoReader.State state)
    {
        var loader = _current ?? Throw.Invalid<TableLoader>("The payload has rows before any table.");
        _rows += loader.ReadBlock(ref state, _options, RowBudget, TableCount - 1, _derivedWork, _inflater, _payloadBytes);
        _derivedWork.PayloadBytes = _payloadBytes + _inflater.Expansion;
    }

    public void Complete(TailModel? tail)
    {
        _current?.EndLoad();
        _current = null;
        var dataSet = _standalone is null ? DataSet : null;
        _derivedWork.AddSchema(_tables, tail);
        foreach (var loader in _tables)
        {
            if (loader.Created)
            {
                ConstraintFactory.AddUniques(loader);
            }
        }

        if (tail is not null)
        {
            ConstraintFactory.AddForeignKeys(_tables, tail.ForeignKeys);
            if (dataSet is not null)
            {
                ConstraintFactory.AddRelations(dataSet, _tables, tail.Relations);
            }
        }

        ConstraintFactory.ApplyDeferredColumns(_tables.FindAll(t => t.Created));

        Resume();
        if (dataSet is not null)
        {
            dataSet.EnforceConstraints = _header?.EnforceConstraints ?? true;
        }

        foreach (var loader in _tables)
        {
            loader.RestoreNonNullable();
        }
    }

    /// <summary>Leaves the target empty after a failed load (its rows are cleared; the exception is the caller's).</summary>
    public void Abandon()
    {
        try
        {
            _dataSet?.Clear();
            _standalone?.Clear();
            foreach (var loader in _tables)
            {
                loader.RestoreNonNullable();
            }
        }
        catch (Exception ex) when (ex is ConstraintException or InvalidOperationException or ArgumentException)
        {
            // A half-built target may refuse Clear; the caller gets the original failure either way.
        }
    }

    // A declared table matches by name and namespace, or by name alone if that is unambiguous and not yet loaded.
    private DataTable? FindDeclaredTable(DataSet dataSet, TableModel model)
    {
        if (dataSet.Tables.Contains(model.Name, model.Namespace))
        {
            return dataSet.Tables[model.Name, model.Namespace];
        }

        DataTable? byName = null;
        foreach (DataTable table in dataSet.Tables)
        {
            if (string.Equals(table.TableName, model.Name, StringComparison.Ordinal))
            {
                if (byName is not null)
                {
                    return null;
                }

                byName = table;
            }
        }

        return byName is not null && !_tables.Exists(t => ReferenceEquals(t.Table, byName)) ? byName : null;
    }

    // A table taken out of a DataSet payload inherits the DataSet's case sensitivity and locale unless it set its own.
    private static void ApplyStandaloneTable(DataTable table, TableModel model, HeaderModel? header)
    {
        table.TableName = model.Name;
        CultureSettings.ApplyStandalone(table, model, header);
        table.Namespace = model.Namespace;
        table.Prefix = model.Prefix;
        ExtendedPropertiesCodec.Apply(table.ExtendedProperties, model.ExtendedProperties);
    }

    private DataSet Create(System.Globalization.CultureInfo? locale)
    {
        var dataSet = locale is null ? _createDataSet!() : CultureSettings.CreateUnder(locale, _createDataSet!);
        Attach(dataSet);
        return dataSet;
    }

    // Declared tables' rules, expressions and read-only flags are lifted for the load, and constraints are off.
    private void Attach(DataSet dataSet)
    {
        _dataSet = dataSet;
        foreach (DataTable table in dataSet.Tables)
        {
            Suspend(table);
        }

        dataSet.EnforceConstraints = false;
    }

    // A declared table keeps its own rules, read-only flags and expressions; they are lifted during the load (so
    // cascades and recomputation cannot touch rows as they arrive) and put back at the end.
    private void Suspend(DataTable table)
    {
        foreach (Constraint constraint in table.Constraints)
        {
            if (constraint is ForeignKeyConstraint fk)
            {
                _suspendedRules.Add((fk, fk.DeleteRule, fk.UpdateRule, fk.AcceptRejectRule));
                fk.DeleteRule = Rule.None;
                fk.UpdateRule = Rule.None;
                fk.AcceptRejectRule = AcceptRejectRule.None;
            }
        }

        foreach (DataColumn column in table.Columns)
        {
            if (column.Expression.Length > 0 || column.ReadOnly)
            {
                _suspendedColumns.Add((column, column.Expression, column.ReadOnly));
                column.Expression = "";
                column.ReadOnly = false;
            }
        }
    }

    private void Resume()
    {
        foreach (var (fk, delete, update, accept) in _suspendedRules)
        {
            fk.DeleteRule = delete;
            fk.UpdateRule = update;
            fk.AcceptRejectRule = accept;
        }

        foreach (var (column, expression, readOnly) in _suspendedColumns)
        {
            if (expression.Length > 0)
            {
                column.Expression = expression;
            }

            column.ReadOnly = readOnly;
        }
    }
}
