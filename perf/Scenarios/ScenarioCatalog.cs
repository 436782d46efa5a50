using System.Data;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// The named DataSets every benchmark and the comparison harness share. Each scenario is deterministic for a seed,
/// so two processes (client and server) build identical data without exchanging it.
/// </summary>
public static class ScenarioCatalog
{
    /// <summary>Seed used when a caller does not choose one.</summary>
    public const int DefaultSeed = 2011;

    private static readonly Dictionary<string, Func<int, DataSet>> Factories = new(StringComparer.OrdinalIgnoreCase)
    {
        ["small"] = seed => TwoStringColumnsScenario.Create(10, seed),
        ["rows-10000"] = seed => TwoStringColumnsScenario.Create(10_000, seed),
        ["rows-15000"] = seed => TwoStringColumnsScenario.Create(15_000, seed),
        ["orders"] = seed => OrdersScenario.Create(OrdersScenario.DefaultOrderCount, seed),
        ["wide-numeric"] = seed => WideNumericScenario.Create(WideNumericScenario.DefaultRowCount, seed),
    };

    /// <summary>Scenario names in the order reports list them.</summary>
    public static IReadOnlyList<string> Names { get; } = ["small", "rows-10000", "rows-15000", "orders", "wide-numeric"];

    /// <summary>The factory for a named scenario, bound to a seed.</summary>
    public static Func<DataSet> Get(string name, int seed = DefaultSeed)
    {
        if (!Factories.TryGetValue(name, out var factory))
        {
            throw new ArgumentException($"Unknown scenario '{name}'. Known: {string.Join(", ", Names)}.", nameof(name));
        }

        return () => factory(seed);
    }

    /// <summary>Builds a fresh copy of a named scenario (all rows Unchanged).</summary>
    public static DataSet Create(string name, int seed = DefaultSeed) => Get(name, seed)();

    /// <summary>Total rows over all tables of a DataSet (for per-row figures).</summary>
    public static int RowCount(DataSet dataSet) => dataSet.Tables.Cast<DataTable>().Sum(t => t.Rows.Count);

    /// <summary>The "objects" reference case: <paramref name="count"/> small data-contract objects.</summary>
    public static SmallObject[] Objects(int count, int seed = DefaultSeed)
    {
        var random = new Random(seed);
        var objects = new SmallObject[count];
        for (int i = 0; i < count; i++)
        {
            objects[i] = new SmallObject { Id = i + 1, Name = TextSource.Words(random, 2, 4) };
        }

        return objects;
    }
}
