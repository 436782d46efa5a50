using System.Data;

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

    /// <summary>Keys 1..3, then the row holding 3 removed: the next key (4) is above every loaded key (1, 2).</summary>
    private static DataTable Keys(DataTable table)
    {
        table.TableName = "K";
        var id = table.Columns.Add("Id", typeof(int));
        id.AutoIncrement = true;
        id.AutoIncrementSeed = 1;
        table.Columns.Add("Name", typeof(string));
        for (var i = 0; i < 3; i++)
        {
            table.Rows.Add(null, "n" + i);
        }

        table.Rows[2].Delete();
        table.AcceptChanges();
        return table;
    }

    /// <summary>A table class the runtime cannot clone (its own CreateInstance refuses), as some hand-written subclasses do.</summary>
    private sealed class UncloneableTable : DataTable
    {
        protected override DataTable CreateInstance() => throw new InvalidOperationException("This table cannot be cloned.");
    }
}
