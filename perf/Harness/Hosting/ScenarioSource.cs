using System.Data;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>The one place the harness reads the shared scenario catalog (perf/Scenarios).</summary>
public static class ScenarioSource
{
    public static DataSet Create(string scenario) => ScenarioCatalog.Create(scenario);

    public static SmallObject[] Objects(int count) => ScenarioCatalog.Objects(count);
}
