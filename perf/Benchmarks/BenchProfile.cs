namespace Surrogate.Perf.Benchmarks;

/// <summary>
/// Parameter sets for the full run and for CI. CI (`--ci`, `--job dry`, or SURROGATE_BENCH_CI=1) uses small
/// scenarios so a dry pass over every benchmark finishes in well under a minute on 2 cores. `--scenarios a,b`
/// (SURROGATE_BENCH_SCENARIOS) narrows the codec and reader-type scenarios. Both travel as environment variables
/// so out-of-process benchmark children see them too.
/// </summary>
public static class BenchProfile
{
    private const string Variable = "SURROGATE_BENCH_CI";
    private const string ScenariosVariable = "SURROGATE_BENCH_SCENARIOS";

    /// <summary>Whether the small CI parameter sets are in force.</summary>
    public static bool IsCi => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>
    /// Applies and removes our own switches, returning the arguments for BenchmarkDotNet. A dry job selects the CI
    /// parameter sets, since it only shows that each benchmark still runs.
    /// </summary>
    public static string[] ApplyArguments(string[] args)
    {
        var rest = new List<string>(args.Length);
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--ci")
            {
                UseCi();
                continue;
            }

            if (args[i] == "--scenarios" && i + 1 < args.Length)
            {
                Environment.SetEnvironmentVariable(ScenariosVariable, args[++i]);
                continue;
            }

            if (args[i] is "--job" or "-j" && i + 1 < args.Length && args[i + 1].Equals("dry", StringComparison.OrdinalIgnoreCase))
            {
                UseCi();
            }

            rest.Add(args[i]);
        }

        return [.. rest];
    }

    /// <summary>Scenarios of the codec comparison (issue 2, scenarios 1-4).</summary>
    public static IEnumerable<string> CodecScenarios =>
        Narrow(IsCi ? ["small", "orders"] : ["rows-10000", "rows-15000", "orders", "wide-numeric"]);

    /// <summary>Scenarios of the reader-type isolation benchmark.</summary>
    public static IEnumerable<string> ReaderScenarios => Narrow(IsCi ? ["small"] : ["rows-10000", "rows-15000", "orders"]);

    /// <summary>Row counts of the streaming benchmark: two sizes a factor of ten apart.</summary>
    public static IEnumerable<int> StreamingRows => IsCi ? [10_000, 100_000] : [100_000, 1_000_000];

    /// <summary>Selects the CI parameter sets for this process and its children.</summary>
    public static void UseCi() => Environment.SetEnvironmentVariable(Variable, "1");

    private static string[] Narrow(string[] defaults)
    {
        var chosen = Environment.GetEnvironmentVariable(ScenariosVariable);
        return string.IsNullOrWhiteSpace(chosen) ? defaults : chosen.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
    }
}
