using Surrogate.Perf.Harness.Cli;

namespace Surrogate.Perf.Harness;

/// <summary>
/// Entry point: with no command the comparison's driver; <c>latency</c> the latency matrix and soak; <c>compression</c>
/// the compression benchmarks; <c>analyze</c> summarises captured traces; hidden verbs are the child processes the
/// drivers start (<see cref="HarnessCli"/>).
/// </summary>
public static class Program
{
    public static Task<int> Main(string[] args) => HarnessCli.InvokeAsync(args);
}
