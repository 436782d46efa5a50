using System.CommandLine;
using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Hosting;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Cli;

/// <summary>The hidden verbs the drivers start as child processes; their arguments pass through as they are.</summary>
public static class ChildCli
{
    public static IEnumerable<Command> Create() =>
    [
        Child("serve", args => ServeCommand.RunAsync(args)),
        Child("client", _ => Task.FromResult(ClientCommand.Run())),
        Child("latency-serve", args => LatencyServeCommand.RunAsync(args, StandInLatencyHost.StartAsync)),
        Child("latency-client", args => Task.FromResult(LatencyClientCommand.Run(args, StandInLatencyHost.StartAsync))),
        Child("compression-serve", StandInBenchHost.RunAsync),
        Child("compression-client", _ => Task.FromResult(BenchClientCommand.Run())),
    ];

    private static Command Child(string name, Func<IReadOnlyList<string>, Task<int>> run)
    {
        var command = new Command(name) { Hidden = true, TreatUnmatchedTokensAsErrors = false };
        command.SetAction((result, _) => run([.. result.UnmatchedTokens]));
        return command;
    }
}
