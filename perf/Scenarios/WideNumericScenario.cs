using System.Data;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// A wide numeric table: 20 columns cycling through integer, floating-point, decimal and boolean types, where every
/// fourth column allows nulls and holds about 10% of them.
/// </summary>
public static class WideNumericScenario
{
    /// <summary>Row count of the catalog's "wide-numeric" scenario.</summary>
    public const int DefaultRowCount = 100_000;

    /// <summary>Number of columns.</summary>
    public const int ColumnCount = 20;

    private static readonly Type[] ColumnTypes =
    [
        typeof(int), typeof(long), typeof(double), typeof(decimal), typeof(short),
        typeof(float), typeof(byte), typeof(long), typeof(double), typeof(int),
    ];

    /// <summary>Builds the DataSet with <paramref name="rows"/> Unchanged rows.</summary>
    public static DataSet Create(int rows, int seed)
    {
        var dataSet = new DataSet("WideNumericDataSet");
        var table = dataSet.Tables.Add("Measurements");
        for (int c = 0; c < ColumnCount; c++)
        {
            var column = table.Columns.Add($"C{c:D2}", ColumnTypes[c % ColumnTypes.Length]);
            column.AllowDBNull = IsNullable(c);
        }

        table.MinimumCapacity = rows;
        var random = new Random(seed);
        var values = new object[ColumnCount];
        table.BeginLoadData();
        for (int r = 0; r < rows; r++)
        {
            FillRow(random, r, values);
            table.LoadDataRow(values, LoadOption.OverwriteChanges);
        }

        table.EndLoadData();
        return dataSet;
    }

    /// <summary>Whether column <paramref name="column"/> holds nulls.</summary>
    public static bool IsNullable(int column) => column % 4 == 3;

    /// <summary>Fills one row; the first column is a monotonic key, the others mixed-magnitude values.</summary>
    public static void FillRow(Random random, int row, object[] values)
    {
        for (int c = 0; c < values.Length; c++)
        {
            if (IsNullable(c) && random.Next(10) == 0)
            {
                values[c] = DBNull.Value;
                continue;
            }

            values[c] = ColumnTypes[c % ColumnTypes.Length] switch
            {
                var t when t == typeof(int) => c == 0 ? row : random.Next(-1_000_000, 1_000_000),
                var t when t == typeof(long) => random.NextInt64(-10_000_000_000, 10_000_000_000),
                var t when t == typeof(double) => Math.Round(random.NextDouble() * 10_000, 3),
                var t when t == typeof(decimal) => decimal.Round((decimal)(random.NextDouble() * 100_000), 2),
                var t when t == typeof(short) => (short)random.Next(short.MinValue, short.MaxValue),
                var t when t == typeof(float) => (float)(random.NextDouble() * 100),
                _ => (byte)random.Next(256),
            };
        }
    }
}
