using System.CommandLine;

namespace Surrogate.Perf.Harness.Cli;

/// <summary>
/// The harness's command line (System.CommandLine): the comparison is the root command's own action (and <c>run</c>),
/// then <c>latency</c>, <c>compression</c>, <c>analyze</c>, and the hidden child-process verbs. A new command is a class with a
/// <c>Create()</c> returning its <see cref="Command"/>, added to <see cref="Commands"/>.
/// </summary>
public static class HarnessCli
{
    /// <summary>Every subcommand, in help order.</summary>
    public static IEnumerable<Command> Commands() =>
    [
        ComparisonCli.Create("run"),
        LatencyCli.Create(),
        CompressionCli.Create(),
        AnalyzeCli.Create(),
        .. ChildCli.Create(),
    ];

    public static RootCommand Build()
    {
        var root = new RootCommand("DataSet surrogate perf harness: with no command, the side-by-side transport comparison.");
        ComparisonCli.Configure(root);
        foreach (Command command in Commands())
        {
            root.Subcommands.Add(command);
        }

        return root;
    }

    /// <summary>Runs the command line; a parse error or a bad value prints the message and help hint and exits with 2.</summary>
    public static async Task<int> InvokeAsync(string[] args)
    {
        ParseResult result = Build().Parse(args);
        if (result.Errors.Count > 0)
        {
            foreach (var error in result.Errors)
            {
                await Console.Error.WriteLineAsync(error.Message);
            }

            await Console.Error.WriteLineAsync("Try 'Harness --help' or 'Harness <command> --help'.");
            return 2;
        }

        try
        {
            // Without this System.CommandLine reports a bad value as an unhandled exception with its stack trace.
            return await result.InvokeAsync(new InvocationConfiguration { EnableDefaultExceptionHandler = false });
        }
        catch (ArgumentException e)
        {
            await Console.Error.WriteLineAsync(e.Message);
            return 2;
        }
    }

    /// <summary>Parses <paramref name="args"/> for <paramref name="command"/> alone; throws <see cref="ArgumentException"/> on a parse error.</summary>
    public static ParseResult ParseOrThrow(Command command, IReadOnlyList<string> args)
    {
        ParseResult result = command.Parse(args);
        return result.Errors.Count == 0 ? result : throw new ArgumentException(string.Join(Environment.NewLine, result.Errors.Select(e => e.Message)));
    }

    /// <summary>The command line as the reports print it.</summary>
    public static string Describe(ParseResult result) =>
        "dotnet run -c Release --project perf/Harness -- " + string.Join(' ', result.Tokens.Select(t => t.Value));
}
