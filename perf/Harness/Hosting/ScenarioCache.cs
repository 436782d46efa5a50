using System.Collections.Concurrent;
using System.Data;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>Builds each scenario once per process; the catalog is deterministic, so both sides agree on the data.</summary>
public sealed class ScenarioCache
{
    /// <summary>How many small objects the "objects" case asks for.</summary>
    public const int ObjectCount = 10_000;

    private readonly ConcurrentDictionary<string, DataSet> dataSets = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<int, SmallObject[]> objects = new();

    public DataSet DataSet(string scenario) => dataSets.GetOrAdd(scenario, ScenarioSource.Create);

    public SmallObject[] Objects(int count) => objects.GetOrAdd(count, static n => ScenarioSource.Objects(n));

    /// <summary>Builds <paramref name="scenario"/> and the objects case's objects ahead of the measurement.</summary>
    public void Preload(string scenario)
    {
        DataSet(scenario);
        Objects(ObjectCount);
    }
}
