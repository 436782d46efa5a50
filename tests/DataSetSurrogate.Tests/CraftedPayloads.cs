using System.Data;

namespace Surrogate.Tests;

/// <summary>
/// Payloads of every shape that could make decoding cost more than the payload's size: built through the API where a
/// sender could make them, by hand (ProtoWire) where only a hostile one could. Each is a few hundred kilobytes at most.
/// </summary>
internal static class CraftedPayloads
{
    private static readonly Dictionary<string, Func<byte[]>> Shapes = new(StringComparer.Ordinal)
    {
        ["dictionary-of-65535-entries"] = () => StringBlocks(1, rows => [.. Repeat(rows - 1, ProtoWire.LengthDelimited(6, [])), .. ProtoWire.LengthDelimited(7, new byte[rows])]),
        ["empty-strings"] = () => StringBlocks(4, rows => Repeat(rows, ProtoWire.LengthDelimited(5, []))),
        ["empty-byte-arrays"] = () => Blocks(OneColumn(typeof(byte[]), new byte[1]), Enumerable.Repeat(Block(65_536, Repeat(65_536, ProtoWire.LengthDelimited(8, []))), 2)),
        ["null-cells"] = NullCells,
        ["one-null-bit-per-row"] = () => Blocks(OneColumn(typeof(string), "x"), Enumerable.Repeat(Block(65_536, ProtoWire.LengthDelimited(1, Enumerable.Repeat((byte)0xFF, 65_536 / 8).ToArray())), 4)),
        ["one-big-then-many-small-blocks"] = () => Blocks(OneColumn(typeof(string), "x"), [Block(65_536, Repeat(65_536, ProtoWire.LengthDelimited(5, []))), .. Enumerable.Repeat(Block(1, ProtoWire.LengthDelimited(5, "a"u8)), 50_000)]),
        ["state-vector-shorter-than-its-claim"] = () => Blocks(OneColumn(typeof(string), "x"), [[.. ProtoWire.Tag(1, 0), .. ProtoWire.Varint(65_536), .. ProtoWire.LengthDelimited(2, [1])]]),
        ["object-cells"] = ObjectCells,
        ["values-nested-in-values"] = NestedValues,
        ["row-errors"] = RowErrors,
        ["original-values"] = OriginalValues,
        ["many-tables"] = ManyTables,
        ["many-columns"] = ManyColumns,
        ["extended-properties"] = ExtendedProperties,
        ["relations-and-foreign-keys"] = Relations,
        ["unique-constraints-over-many-rows"] = () => UniqueConstraints(4000),
        ["unique-constraints-within-the-rule"] = () => UniqueConstraints(150),
        ["expression-chain"] = ExpressionChain,
        ["expression-columns-over-many-rows"] = () => ExpressionColumns(1000),
        ["expression-columns-within-the-rule"] = () => ExpressionColumns(2),
        ["aggregates-over-a-large-child-table"] = Aggregates,
        ["compressed-empty-strings"] = () => Blocks(OneColumn(typeof(string), "x"), Enumerable.Repeat(BlockCompressionTests.Inner(RowBlockCodec.Lz4, Block(65_536, Repeat(65_536, ProtoWire.LengthDelimited(5, [])))), 4)),
        ["compressed-null-cells"] = () => Recompressed(NullCells(), RowBlockCodec.Lz4),
        ["compressed-object-cells"] = () => Recompressed(ObjectCells(), RowBlockCodec.Zstd),
        ["compressed-bomb-over-the-expansion-rule"] = () => Blocks(OneColumn(typeof(string), "x"), [BlockCompressionTests.Inner(RowBlockCodec.Zstd, Block(1, new byte[16 << 20]))]),
        ["compressed-block-over-max-total-bytes"] = () => Blocks(OneColumn(typeof(string), "x"), [[.. ProtoWire.Tag(7, 0), 4, .. ProtoWire.Tag(8, 0), .. ProtoWire.Varint(1_100_000_000), .. ProtoWire.LengthDelimited(9, new byte[1_100_000])]]),
    };

    public static IEnumerable<string> Names => Shapes.Keys;

    public static byte[] Create(string shape) => Shapes[shape]();

    /// <summary>
    /// The payload's length with its compressed row blocks counted at their declared raw length: what decoding may cost
    /// in proportion to (a compressed block expands at most 1024 times, and only within MaxTotalBytes).
    /// </summary>
    public static long LogicalLength(byte[] payload)
    {
        long length = payload.Length;
        foreach (var block in ProtoWire.Fields(payload).Where(f => f.Number == 7))
        {
            var fields = ProtoWire.Fields(payload.AsSpan(block.ValueStart, block.End - block.ValueStart));
            if (fields is [{ Number: 7 }, { Number: 8 } raw, { Number: 9 } data, ..])
            {
                length += Math.Max(0, (long)raw.Varint - (data.End - data.ValueStart));
            }
        }

        return length;
    }

    // Every row block of the payload compressed with the codec, where the reader's expansion rule allows.
    private static byte[] Recompressed(byte[] payload, RowBlockCodec codec)
    {
        var fields = ProtoWire.Fields(payload);
        return [.. fields.SelectMany(f => f.Number == 7
            ? ProtoWire.LengthDelimited(7, BlockCompressionTests.Inner(codec, payload[f.ValueStart..f.End]))
            : payload[f.Start..f.End])];
    }

    /// <summary>Replaces a payload's row blocks with the given block bodies (each becomes one RowBlock field).</summary>
    public static byte[] Blocks(DataTable table, IEnumerable<byte[]> blockBodies)
    {
        var payload = DataSetSerializer.Serialize(table);
        var fields = ProtoWire.Fields(payload);
        var first = fields.First(f => f.Number == 7);
        var tail = fields.Last(f => f.Number == 6);
        return [.. payload[..first.Start], .. blockBodies.SelectMany(b => ProtoWire.LengthDelimited(7, b)), .. payload[tail.Start..]];
    }

    /// <summary>A RowBlock body: the row count, then one ColumnData per column.</summary>
    public static byte[] Block(int rows, params byte[][] columns) =>
        [.. ProtoWire.Tag(1, 0), .. ProtoWire.Varint((ulong)rows), .. columns.SelectMany(c => ProtoWire.LengthDelimited(3, c))];

    public static DataTable OneColumn(Type type, object value)
    {
        var table = new DataTable("T");
        table.Columns.Add("C", type);
        table.Rows.Add(value);
        return table;
    }

    private static byte[] Repeat(int count, byte[] field) => [.. Enumerable.Repeat(field, count).SelectMany(f => f)];

    private static byte[] StringBlocks(int blocks, Func<int, byte[]> column) =>
        Blocks(OneColumn(typeof(string), "x"), Enumerable.Repeat(Block(65_536, column(65_536)), blocks));

    private static byte[] NullCells()
    {
        var table = new DataTable("N");
        for (var c = 0; c < 16; c++)
        {
            table.Columns.Add("c" + c, typeof(string));
        }

        for (var r = 0; r < 100_000; r++)
        {
            table.Rows.Add();
        }

        table.AcceptChanges();
        return DataSetSerializer.Serialize(table);
    }

    private static byte[] ObjectCells()
    {
        var table = new DataTable("O");
        table.Columns.Add("O", typeof(object));
        for (var i = 0; i < 50_000; i++)
        {
            table.Rows.Add(i % 3 == 0 ? "s" : i);
        }

        return DataSetSerializer.Serialize(table);
    }

    // A Value holding a Value holding a Value ...: field 9 is not part of Value, and must not be followed.
    private static byte[] NestedValues()
    {
        byte[] value = [.. ProtoWire.Tag(1, 0), 7, .. ProtoWire.Tag(2, 0), 2];
        for (var depth = 0; depth < 2_000; depth++)
        {
            value = [.. ProtoWire.Tag(1, 0), 7, .. ProtoWire.Tag(2, 0), 2, .. ProtoWire.LengthDelimited(9, value)];
        }

        return Blocks(OneColumn(typeof(object), 1), [Block(1, ProtoWire.LengthDelimited(9, value))]);
    }

    private static byte[] RowErrors()
    {
        var table = new DataTable("E");
        table.Columns.Add("A", typeof(int));
        table.Columns.Add("B", typeof(string));
        for (var i = 0; i < 20_000; i++)
        {
            var row = table.Rows.Add(i, "");
            row.RowError = "e";
            row.SetColumnError(0, "x");
            row.SetColumnError(1, "y");
        }

        return DataSetSerializer.Serialize(table);
    }

    private static byte[] OriginalValues()
    {
        var table = new DataTable("M");
        table.Columns.Add("A", typeof(int));
        table.Columns.Add("B", typeof(string));
        for (var i = 0; i < 50_000; i++)
        {
            table.Rows.Add(i, "");
        }

        table.AcceptChanges();
        foreach (DataRow row in table.Rows)
        {
            row[0] = -1;
        }

        return DataSetSerializer.Serialize(table);
    }

    private static byte[] ManyTables()
    {
        var ds = new DataSet("D");
        for (var i = 0; i < 1024; i++)
        {
            ds.Tables.Add("t" + i).Columns.Add("c", typeof(int));
        }

        return DataSetSerializer.Serialize(ds);
    }

    private static byte[] ManyColumns()
    {
        var table = new DataTable("W");
        for (var c = 0; c < 4096; c++)
        {
            table.Columns.Add("c" + c, typeof(int));
        }

        for (var r = 0; r < 20; r++)
        {
            table.Rows.Add();
        }

        return DataSetSerializer.Serialize(table);
    }

    private static byte[] ExtendedProperties()
    {
        var ds = new DataSet("P");
        for (var i = 0; i < 1024; i++)
        {
            ds.ExtendedProperties["k" + i] = i;
        }

        var table = ds.Tables.Add("T");
        for (var c = 0; c < 200; c++)
        {
            var column = table.Columns.Add("c" + c, typeof(int));
            for (var i = 0; i < 200; i++)
            {
                column.ExtendedProperties["k" + i] = "";
            }
        }

        return DataSetSerializer.Serialize(ds);
    }

    private static byte[] Relations()
    {
        var ds = new DataSet("R");
        for (var i = 0; i < 1000; i++)
        {
            var table = ds.Tables.Add("t" + i);
            table.Columns.Add("id", typeof(int));
            table.Columns.Add("p", typeof(int));
            for (var r = 0; r < 20; r++)
            {
                table.Rows.Add(r, r);
            }
        }

        for (var i = 1; i < 1000; i++)
        {
            ds.Relations.Add("r" + i, ds.Tables[i - 1].Columns[0], ds.Tables[i].Columns[1], i % 2 == 0);
        }

        return DataSetSerializer.Serialize(ds);
    }

    // Every unique constraint indexes every row of its table: constraints over distinct column sets of 12 small
    // columns, and 20,000 rows. (Built as a sender would, it would cost the sender what it costs the reader.)
    private static byte[] UniqueConstraints(int count)
    {
        static DataTable Columns()
        {
            var table = new DataTable("U");
            for (var c = 0; c < 12; c++)
            {
                table.Columns.Add("c" + c, typeof(int));
            }

            return table;
        }

        var schema = Columns();
        for (var mask = 1; mask <= count; mask++)
        {
            schema.Constraints.Add(new UniqueConstraint("u" + mask, [.. Enumerable.Range(0, 12).Where(b => (mask & (1 << b)) != 0).Select(b => schema.Columns[b])]));
        }

        var rows = Columns();
        for (var r = 0; r < 20_000; r++)
        {
            rows.Rows.Add([.. Enumerable.Repeat((object)r, 12)]);
        }

        return WithRowsOf(DataSetSerializer.Serialize(schema), DataSetSerializer.Serialize(rows), table: 0);
    }

    // e0 = e1 + 1, e1 = e2 + 1, ...: set in column order, each expression re-evaluates every one set before it.
    private static byte[] ExpressionChain()
    {
        const int Length = 2000;
        var table = new DataTable("X");
        table.Columns.Add("v", typeof(int));
        table.Rows.Add(1);
        for (var c = 0; c < Length; c++)
        {
            table.Columns.Add("e" + c, typeof(int));
        }

        for (var c = Length - 1; c >= 0; c--)
        {
            table.Columns["e" + c]!.Expression = c == Length - 1 ? "v + 1" : $"e{c + 1} + 1";
        }

        return DataSetSerializer.Serialize(table);
    }

    // Expression columns carry no values: each costs a few bytes of schema and one computed cell per row; the rows
    // cost a null-bitmap bit each.
    private static byte[] ExpressionColumns(int computed)
    {
        var table = new DataTable("C");
        table.Columns.Add("v", typeof(bool));
        for (var c = 0; c < computed; c++)
        {
            table.Columns.Add("e" + c, typeof(int), "1");
        }

        table.Rows.Add();
        byte[][] columns = [ProtoWire.LengthDelimited(1, Enumerable.Repeat((byte)0xFF, 65_536 / 8).ToArray()), .. Enumerable.Repeat(Array.Empty<byte>(), computed)];
        return Blocks(table, Enumerable.Repeat(Block(65_536, columns), 2));
    }

    // A parent row's aggregate reads every child row: many aggregate columns over one large child table.
    private static byte[] Aggregates()
    {
        static DataSet Tables(int computed)
        {
            var ds = new DataSet("A");
            var parent = ds.Tables.Add("P");
            parent.Columns.Add("id", typeof(int));
            parent.Rows.Add(0);
            ds.Tables.Add("C").Columns.Add("p", typeof(int));
            ds.Relations.Add("pc", parent.Columns[0], ds.Tables["C"]!.Columns[0], false);
            for (var c = 0; c < computed; c++)
            {
                parent.Columns.Add("n" + c, typeof(int), "Count(Child.p)");
            }

            return ds;
        }

        var rows = Tables(0);
        for (var r = 0; r < 100_000; r++)
        {
            rows.Tables["C"]!.Rows.Add(0);
        }

        return WithRowsOf(DataSetSerializer.Serialize(Tables(1000)), DataSetSerializer.Serialize(rows), table: 1);
    }

    /// <summary>
    /// One payload with the row blocks of another's table <paramref name="table"/> added to that table (same value
    /// columns in the same order): what a sender gets for free, since the reader does the work the sender skipped.
    /// </summary>
    private static byte[] WithRowsOf(byte[] schemaPayload, byte[] rowsPayload, int table)
    {
        var blocks = ProtoWire.Fields(rowsPayload).Where(f => f.Number == 7)
            .Select(f => rowsPayload[f.Start..f.End])
            .Where(b => TableOf(b) == table)
            .SelectMany(b => b);
        var fields = ProtoWire.Fields(schemaPayload);
        var schema = fields.Where(f => f.Number == 5).ElementAt(table);
        var next = fields.First(f => f.Start > schema.Start && f.Number is 5 or 6);
        return [.. schemaPayload[..next.Start], .. blocks, .. schemaPayload[next.Start..]];
    }

    private static int TableOf(byte[] blockField)
    {
        var body = ProtoWire.Fields(blockField)[0];
        var table = ProtoWire.Fields(blockField.AsSpan(body.ValueStart, body.End - body.ValueStart)).FirstOrDefault(f => f.Number == 6);
        return (int)table.Varint;
    }
}
