using Surrogate.Schema;

namespace Surrogate.Build;

/// <summary>
/// What a payload asks the receiving DataSet to build beyond its rows and values, none of which costs the sender a
/// byte: an index entry per row of each table a unique constraint, foreign key or relation indexes, and a computed
/// cell per row for each expression column (one unit per 32 characters of its text, and a read of every row of the
/// related tables when it reads through Parent or Child). It is held to <see cref="PerPayloadByte"/> units per payload
/// byte, counted as rows arrive and before any constraint, relation or expression is built. The forward-only reader
/// counts its expression columns' cells the same way (a consumer visits each), against the bytes read so far.
/// </summary>
/// <remarks>
/// Without the rule, 4,000 unique constraints over 20,000 rows (335 KB) made the reader build 80 million index entries
/// (2.7 GB, over half a minute), and 1,000 constant expression columns over 131,072 rows of one null bit each (42 KB)
/// made it store and compute 131 million cells. Real DataSets stay far below: a table keyed by an integer column and
/// read through a relation or two uses a few units per row, and its rows cost bytes each.
/// </remarks>
internal sealed class DerivedWork(long payloadBytes)
{
    /// <summary>The payload bytes the units are held to (the forward-only reader raises it as it reads).</summary>
    public long PayloadBytes { get; set; } = payloadBytes;

    /// <summary>Index entries and computed cells allowed per payload byte.</summary>
    public const int PerPayloadByte = 16;

    private const int ExpressionCharactersPerUnit = 32;

    private long _units;

    /// <summary>Units each row of a table costs through its expression columns (0 for tables the target declares).</summary>
    public static int PerRow(TableModel model)
    {
        var units = 0;
        foreach (var column in model.Columns)
        {
            if (column.Expression is { } expression)
            {
                units = checked(units + 1 + (expression.Length / ExpressionCharactersPerUnit));
            }
        }

        return units;
    }

    /// <summary>Counts the rows of a block as they are loaded.</summary>
    public void AddRows(int rows, int unitsPerRow) => Add((long)rows * unitsPerRow);

    /// <summary>Counts the indexes and related-row reads the schema asks for, before any is built.</summary>
    public void AddSchema(List<TableLoader> tables, TailModel? tail)
    {
        var rows = new long[tables.Count];
        var related = new long[tables.Count];
        for (var i = 0; i < tables.Count; i++)
        {
            rows[i] = tables[i].Table.Rows.Count;
        }

        foreach (var fk in tail?.ForeignKeys ?? [])
        {
            Add(Rows(rows, fk.ChildTable) + Rows(rows, fk.ParentTable));
        }

        foreach (var relation in tail?.Relations ?? [])
        {
            Add(Rows(rows, relation.ChildTable) + Rows(rows, relation.ParentTable));
            if ((uint)relation.ParentTable < (uint)tables.Count && (uint)relation.ChildTable < (uint)tables.Count)
            {
                related[relation.ParentTable] += rows[relation.ChildTable];
                related[relation.ChildTable] += rows[relation.ParentTable];
            }
        }

        for (var i = 0; i < tables.Count; i++)
        {
            if (!tables[i].Created)
            {
                continue;
            }

            Add(rows[i] * tables[i].Model.Uniques.Count);
            foreach (var column in tables[i].Model.Columns)
            {
                if (column.Expression is { } expression && ExpressionOrder.ReadsRelatedRows(expression))
                {
                    Add(related[i]);
                }
            }
        }
    }

    private void Add(long units)
    {
        _units = checked(_units + units);
        var allowed = PerPayloadByte * PayloadBytes;
        if (_units > allowed)
        {
            Throw.Invalid($"The payload's expression columns, constraints and relations would make the reader build more than {allowed} index entries and computed cells, {PerPayloadByte} per payload byte ({PayloadBytes} bytes).");
        }
    }

    private static long Rows(long[] rows, int table) => (uint)table < (uint)rows.Length ? rows[table] : 0;
}
