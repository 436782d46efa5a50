namespace Surrogate.Perf.Benchmarks;

/// <summary>
/// Parameter sets for the full run and for CI. CI (`--ci`, or SURROGATE_BENCH_CI=1) uses small scenarios so a
/// `--job dry --inProcess` pass over every benchmark finishes in a few minutes on 2 cores. The switch travels as an
/// environment variable so out-of-process benchmark children inherit it.
/// </summary>
public static class BenchProfile
{
    private const string Variable = "SURROGATE_BENCH_CI";

    /// <summary>Whether the small CI parameter sets are in force.</summary>
    public static bool IsCi => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>Scenarios of the codec comparison (issue 2, scenarios 1-4).</summary>
    public static IEnumerable<string> CodecScenarios =>
        IsCi ? ["small", "orders"] : ["rows-10000", "rows-15000", "orders", "wide-numeric"];

    /// <summary>Scenarios of the reader-type isolation benchmark.</summary>
    public static IEnumerable<string> ReaderScenarios => IsCi ? ["small"] : ["rows-10000", "rows-15000", "orders"];

    /// <summary>Row counts of the streaming benchmark: two sizes a factor of ten apart.</summary>
    public static IEnumerable<int> StreamingRows => IsCi ? [10_000, 100_000] : [100_000, 1_000_000];

    /// <summary>Selects the CI parameter sets for this process and its children.</summary>
    public static void UseCi() => Environment.SetEnvironmentVariable(Variable, "1");
}
