using System.Data;
using System.Data.SqlTypes;
using System.Numerics;

namespace Surrogate.Tests;

/// <summary>The AutoIncrement counter travels, or the write is refused: it is never dropped silently.</summary>
public sealed class AutoIncrementTests
{
    [Fact]
    public void The_counter_above_every_loaded_key_travels()
    {
        var table = Keys(new DataTable("K"));
        var copy = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table));
        Assert.Equal(table.NewRow()["Id"], copy.NewRow()["Id"]);
    }

    [Fact]
    public void A_table_whose_counter_cannot_be_read_is_refused_naming_the_table_and_column()
    {
        var table = Keys(new UncloneableTable());
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(table));
        Assert.Equal("K", error.Table);
        Assert.Equal("Id", error.Column);
        Assert.Contains("AutoIncrement", error.Message, StringComparison.Ordinal);
        Assert.IsType<InvalidOperationException>(error.InnerException);

        var ds = new DataSet("D");
        ds.Tables.Add(Keys(new UncloneableTable()));
        Assert.Equal(("K", "Id"), Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(ds)) is var e ? (e.Table, e.Column) : default);
    }

    /// <summary>Every type DataSet loads AutoIncrement values into: the counter above the loaded keys travels as the
    /// column holds it (a BigInteger column's counter failed the reader with an invalid cast).</summary>
    [Theory]
    [InlineData(typeof(short))]
    [InlineData(typeof(int))]
    [InlineData(typeof(long))]
    [InlineData(typeof(decimal))]
    [InlineData(typeof(BigInteger))]
    public void The_counter_of_every_auto_increment_type_travels(Type type)
    {
        var table = Keys(new DataTable("K"), type, rows: 3);
        table.Rows[2].Delete();
        table.AcceptChanges();

        var copy = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table));
        Assert.Equal(type, copy.Columns["Id"]!.DataType);
        Assert.Equal(table.Clone().NewRow()["Id"], copy.Clone().NewRow()["Id"]);
        Assert.Equal(4L, Counter(copy, "Id"));
    }

    /// <summary>A SqlTypes AutoIncrement column without values travels with its counter at its seed (the writer failed
    /// on a SqlDecimal column with an invalid cast).</summary>
    [Theory]
    [InlineData(typeof(SqlInt16))]
    [InlineData(typeof(SqlInt32))]
    [InlineData(typeof(SqlInt64))]
    [InlineData(typeof(SqlDecimal))]
    public void A_sql_types_auto_increment_column_without_values_travels(Type type)
    {
        var table = Keys(new DataTable("K"), type, rows: 0);
        table.Columns["Id"]!.AutoIncrementSeed = 7;
        var copy = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table));
        Assert.Equal((type, 7L), (copy.Columns["Id"]!.DataType, copy.Columns["Id"]!.AutoIncrementSeed));
        Assert.Equal(7L, Counter(copy, "Id"));
    }

    /// <summary>DataTable refuses explicit values in SqlInt64 and SqlDecimal AutoIncrement columns (it makes its own
    /// with NewRow, but no receiver can load them), so the writer refuses such a table with that reason.</summary>
    [Theory]
    [InlineData(typeof(SqlInt64))]
    [InlineData(typeof(SqlDecimal))]
    public void A_sql_types_auto_increment_column_holding_values_is_refused_with_the_reason(Type type)
    {
        var table = Keys(new DataTable("K"), type, rows: 2);
        var loaded = table.Clone();
        Assert.Throws<DataException>(() => loaded.LoadDataRow(table.Rows[0].ItemArray, true));

        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(table));
        Assert.Equal(("K", "Id"), (error.Table, error.Column));
        Assert.Contains("DataTable cannot load", error.Message, StringComparison.Ordinal);
    }

    /// <summary>An Int32 key whose last row took int.MaxValue: DataTable holds the counter at 2^31 and refuses its next
    /// NewRow. The writer refused such a table; it now travels and the copy is in the same state.</summary>
    [Fact]
    public void An_exhausted_counter_travels_and_the_copy_refuses_its_next_row_as_the_source_does()
    {
        var dataSet = new DataSet("D");
        var table = dataSet.Tables.Add("K");
        var id = table.Columns.Add("Id", typeof(int));
        id.AutoIncrement = true;
        id.AutoIncrementSeed = int.MaxValue - 1;
        table.Columns.Add("Odd", typeof(int), "Id % 2");
        table.PrimaryKey = [id];
        var child = dataSet.Tables.Add("C");
        child.Columns.Add("KId", typeof(int));
        dataSet.Relations.Add("K_C", id, child.Columns[0]);
        table.Rows.Add();
        table.Rows.Add();
        child.Rows.Add(int.MaxValue);
        Assert.Throws<OverflowException>(() => table.Clone().NewRow());

        var copy = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(dataSet));
        Tests.Fixtures.DataSetAssert.Equivalent(dataSet, copy);
        Assert.Equal((long)int.MaxValue + 1, Counter(copy.Tables["K"]!, "Id"));
        Assert.Throws<OverflowException>(() => copy.Tables["K"]!.Clone().NewRow());

        var alone = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table.Copy()));
        Assert.Equal((long)int.MaxValue + 1, Counter(alone, "Id"));
    }

    /// <summary>The payload carries the counter as an Int64; only explicit values beyond it loaded into a BigInteger
    /// column move the counter further, and such a table is refused with the reason, naming table and column.</summary>
    [Fact]
    public void A_big_integer_counter_beyond_int64_is_refused_with_the_reason()
    {
        var table = new DataTable("B");
        var id = table.Columns.Add("Id", typeof(BigInteger));
        id.AutoIncrement = true;
        table.Rows.Add(new BigInteger(long.MaxValue) * 4);

        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(table));
        Assert.Equal(("B", "Id"), (error.Table, error.Column));
        Assert.Contains("outside the Int64 range", error.Message, StringComparison.Ordinal);
    }

    /// <summary>The counter as DataTable holds it (an Int64 even for narrower columns): a clone's column retyped to
    /// Int64 shows it in its next row.</summary>
    private static long Counter(DataTable table, string column)
    {
        var clone = table.Clone();
        clone.Constraints.Clear();
        clone.Columns[column]!.Expression = string.Empty;
        clone.Columns[column]!.DataType = typeof(long);
        return (long)clone.NewRow()[column];
    }

    /// <summary>Keys 1..3, then the row holding 3 removed: the next key (4) is above every loaded key (1, 2).</summary>
    private static DataTable Keys(DataTable table)
    {
        Keys(table, typeof(int), rows: 3);
        table.Rows[2].Delete();
        table.AcceptChanges();
        return table;
    }

    /// <summary>An AutoIncrement key of the given type seeded at 1 and a name, with that many rows.</summary>
    private static DataTable Keys(DataTable table, Type type, int rows)
    {
        table.TableName = "K";
        var id = table.Columns.Add("Id", type);
        id.AutoIncrement = true;
        id.AutoIncrementSeed = 1;
        table.Columns.Add("Name", typeof(string));
        for (var i = 0; i < rows; i++)
        {
            table.Rows.Add(null, "n" + i);
        }

        return table;
    }

    /// <summary>A table class the runtime cannot clone (its own CreateInstance refuses), as some hand-written subclasses do.</summary>
    private sealed class UncloneableTable : DataTable
    {
        protected override DataTable CreateInstance() => throw new InvalidOperationException("This table cannot be cloned.");
    }
}
