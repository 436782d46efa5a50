using System.CommandLine;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Cli;

/// <summary>The comparison's options, on the root command (so README's bare command runs it) and on <c>run</c>.</summary>
public static class ComparisonCli
{
    private static readonly Option<bool> Quick = new("--quick") { Description = "short profile for CI (about two minutes on 2 cores)" };
    private static readonly Option<string?> Out = new("--out") { Description = "output folder (default perf/out/<yyyyMMdd-HHmmss>)" };
    private static readonly Option<bool> Trace = new("--trace") { Description = "EventPipe traces of server and client during each measured window, then analyze" };
    private static readonly Option<string?> Scenarios = new("--scenarios") { Description = "subset of: " + string.Join(", ", HarnessOptions.DefaultScenarios) };
    private static readonly Option<string?> Cases = new("--cases")
    {
        Description = "subset of: " + string.Join(", ", ComparisonCases.Defaults) + "; opt-in (default NetTcpBinding, 8 KB client buffers: the loopback stall): " +
            string.Join(", ", ComparisonCases.All.Where(c => c.OptIn).Select(c => c.Name)),
    };

    private static readonly Option<string?> Server = new("--server")
    {
        Description = "soaphost (the stand-in host, tests/StandInHost) or corewcf (perf/CoreWcfServer, built separately); default: corewcf when its build is found " +
            $"(in the folder {ServerChoice.ServerFolderVariable} names, else perf/CoreWcfServer), else soaphost",
    };

    private static readonly Option<string?> Duration = new("--duration") { Description = "measured seconds per cell (overrides the profile)" };
    private static readonly Option<string?> Warmup = new("--warmup") { Description = "warmup seconds per cell (overrides the profile)" };
    private static readonly Option<bool> NoPin = new("--no-pin") { Description = "do not pin server and client to separate cores" };
    private static readonly Option<string?> Link = new("--link")
    {
        Description = "server in its own network namespace behind a veth pair shaped with tbf both ways at <rate> (tc syntax: 100mbit, 1gbit, 500kbit); needs root and iproute2",
    };

    public static Command Create(string name)
    {
        var command = new Command(name, "compare the transports (server and client in separate processes); the default command");
        Configure(command);
        return command;
    }

    /// <summary>Adds the options and the action to <paramref name="command"/>.</summary>
    public static void Configure(Command command)
    {
        foreach (Option option in new Option[] { Quick, Out, Trace, Scenarios, Cases, Server, Duration, Warmup, NoPin, Link })
        {
            command.Options.Add(option);
        }

        command.SetAction((result, _) => RunCommand.RunAsync(Options(result), HarnessCli.Describe(result)));
    }

    public static HarnessOptions Options(ParseResult r) => HarnessOptions.From(
        r.GetValue(Quick), r.GetValue(Out), r.GetValue(Trace), r.GetValue(NoPin), r.GetValue(Link), r.GetValue(Server),
        r.GetValue(Scenarios), r.GetValue(Cases), r.GetValue(Duration), r.GetValue(Warmup));
}
