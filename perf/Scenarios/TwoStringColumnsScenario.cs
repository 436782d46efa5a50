using System.Data;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// One table with two string columns, the shape of the 2011 "WCF performance using DataSets" test
/// (10,000 and 15,000 rows there).
/// </summary>
public static class TwoStringColumnsScenario
{
    /// <summary>Builds the DataSet with <paramref name="rows"/> Unchanged rows.</summary>
    public static DataSet Create(int rows, int seed)
    {
        var dataSet = new DataSet("TestDataSet");
        var table = dataSet.Tables.Add("TestTable");
        table.Columns.Add("Code", typeof(string));
        table.Columns.Add("Description", typeof(string));
        table.MinimumCapacity = rows;

        var random = new Random(seed);
        var values = new object[2];
        table.BeginLoadData();
        for (int i = 0; i < rows; i++)
        {
            (values[0], values[1]) = Row(random, i);
            table.LoadDataRow(values, LoadOption.OverwriteChanges);
        }

        table.EndLoadData();
        return dataSet;
    }

    /// <summary>The values of row <paramref name="index"/>, drawing from <paramref name="random"/>.</summary>
    public static (string Code, string Description) Row(Random random, int index) =>
        ($"ITEM-{index:D7}", TextSource.Words(random, 3, 8));
}
