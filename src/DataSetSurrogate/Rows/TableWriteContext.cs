using System.Data;
using Surrogate.Columns;
using Surrogate.Schema;

namespace Surrogate.Rows;

/// <summary>What the writer knows about one table: its codecs (chosen once) and where it is, for error messages.</summary>
internal sealed class TableWriteContext
{
    public TableWriteContext(DataTable table, bool standalone, SurrogateOptions options, AutoIncrementProbe autoIncrement, int index)
    {
        Index = index;
        AutoIncrement = autoIncrement;
        Table = table;
        Standalone = standalone;
        BlockCodec = options.BlockCodec;
        BlockLevel = options.EffectiveBlockLevel;
        Codecs = new ColumnCodec[table.Columns.Count];
        for (var i = 0; i < table.Columns.Count; i++)
        {
            var column = table.Columns[i];
            var codec = ColumnCodecs.ForColumnType(column.DataType, options);
            if (codec is null)
            {
                Throw.Column($"Column type '{column.DataType}' cannot be written: {ColumnCodecs.RefusalReason(column.DataType)}.", table.TableName, column.ColumnName);
            }

            Codecs[column.Ordinal] = codec;
            CarriesValues |= column.Expression.Length == 0;
            if (column.Expression.Length > 0)
            {
                // The reader refuses what the guard refuses: tell the sender now rather than the receiver later.
                try
                {
                    ExpressionGuard.Check(column.Expression, options);
                }
                catch (DataSetSurrogateException ex)
                {
                    throw DataSetSurrogateException.Wrap(ex, table.TableName, column.ColumnName, null);
                }
            }
        }
    }

    public DataTable Table { get; }

    /// <summary>The table's position in the payload (row blocks name it).</summary>
    public int Index { get; }

    /// <summary>True when the table is written on its own (a DataTable payload), not as part of its DataSet.</summary>
    public bool Standalone { get; }

    public ColumnCodec[] Codecs { get; }

    /// <summary>The codec row blocks are compressed with (<see cref="RowBlockCodec.None"/>: raw) and its level.</summary>
    public RowBlockCodec BlockCodec { get; }

    public int BlockLevel { get; }

    /// <summary>
    /// False when no column's values travel (no columns, or expression columns only): such blocks always carry their
    /// row states, so that each row costs a byte and a reader can hold a block's row count to its size.
    /// </summary>
    public bool CarriesValues { get; }

    /// <summary>The length of the table's last row block (0 before the first): the next block's size hint.</summary>
    public int LastBlockBytes { get; set; }

    /// <summary>Shared by the tables of one payload, so a DataSet is cloned at most once.</summary>
    public AutoIncrementProbe AutoIncrement { get; }
}
