using System.Globalization;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Harness.Cli;

/// <summary>How long each cell warms up and measures; <c>--quick</c> and the default full profile.</summary>
public sealed record Profile(string Name, double WarmupSeconds, int WarmupCalls, double MeasureSeconds, int MinCalls, int MaxCalls, double FloorSeconds, int FloorIterations)
{
    public static Profile Full { get; } = new("full", 3, 10, 10, 30, 1_000_000, 2, 10);

    public static Profile Quick { get; } = new("quick", 0.5, 2, 2, 5, 1_000_000, 0.5, 3);
}

/// <summary>Options of the comparison run (the default verb).</summary>
public sealed record HarnessOptions
{
    public static readonly IReadOnlyList<string> DefaultScenarios = ["small", "rows-10000", "rows-15000", "orders"];

    public Profile Profile { get; init; } = Profile.Full;

    public string? OutputDirectory { get; init; }

    public bool Trace { get; init; }

    public bool Pin { get; init; } = true;

    public IReadOnlyList<string> Scenarios { get; init; } = DefaultScenarios;

    public IReadOnlyList<string> Cases { get; init; } = ComparisonCases.Defaults;

    /// <summary>With <c>--server</c>: <c>soaphost</c> (the stand-in host) or <c>corewcf</c>; null picks CoreWCF when its server is built.</summary>
    public string? Server { get; init; }

    /// <summary>With <c>--link</c>: the rate of the shaped veth link between client and server; null runs on loopback.</summary>
    public LinkRate? Link { get; init; }

    public const string Usage = """
        Usage:
          Harness [run] [options]          compare the transports (server and client in separate processes)
          Harness analyze <folder|file.nettrace> [--top N]
                                           top frames and DataSet-XML vs surrogate shares of captured traces
        Options:
          --quick              short profile for CI (about two minutes on 2 cores)
          --out <dir>          output folder (default perf/out/<yyyyMMdd-HHmmss>)
          --trace              EventPipe traces of server and client during each measured window, then analyze
          --scenarios a,b      subset of: small, rows-10000, rows-15000, orders
          --cases a,b          subset of: nettcp-binary, nettcp-surrogate, nettcp-binary-load, nettcp-surrogate-load,
                               basichttp-text, asmx-text, objects; opt-in (default NetTcpBinding, 8 KB client
                               buffers: the loopback stall): nettcp-binary-8k, nettcp-surrogate-8k
          --server <name>      soaphost (the stand-in host, tests/StandInHost) or corewcf (perf/CoreWcfServer, built
                               separately); default: corewcf when its build is found, else soaphost. The build is
                               looked for in the folder HARNESS_COREWCF_SERVER names, else perf/CoreWcfServer
          --duration <s>       measured seconds per cell (overrides the profile)
          --warmup <s>         warmup seconds per cell (overrides the profile)
          --no-pin             do not pin server and client to separate cores
          --link <rate>        server in its own network namespace behind a veth pair shaped with tbf both ways
                               at <rate> (tc syntax: 100mbit, 1gbit, 500kbit); needs root and iproute2
        """;

    /// <summary>Parses run options; throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static HarnessOptions Parse(IReadOnlyList<string> args)
    {
        // The profile is chosen first so that --duration and --warmup override it whatever the order.
        var options = new HarnessOptions { Profile = args.Contains("--quick") ? Profile.Quick : Profile.Full };
        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            options = arg switch
            {
                "--quick" => options,
                "--out" => options with { OutputDirectory = Value(args, ref i) },
                "--trace" => options with { Trace = true },
                "--no-pin" => options with { Pin = false },
                "--link" => options with { Link = LinkRate.Parse(Value(args, ref i)) },
                "--server" => options with { Server = List(Value(args, ref i), ["soaphost", "corewcf"], "server") is [var one] ? one : throw new ArgumentException("--server takes one of soaphost, corewcf.") },
                "--scenarios" => options with { Scenarios = List(Value(args, ref i), DefaultScenarios, "scenario") },
                "--cases" => options with { Cases = List(Value(args, ref i), ComparisonCases.All.Select(c => c.Name).ToList(), "case") },
                "--duration" => options with { Profile = options.Profile with { MeasureSeconds = Seconds(Value(args, ref i)) } },
                "--warmup" => options with { Profile = options.Profile with { WarmupSeconds = Seconds(Value(args, ref i)) } },
                _ => throw new ArgumentException($"Unknown option '{arg}'."),
            };
        }

        return options;
    }

    private static string Value(IReadOnlyList<string> args, ref int i) =>
        ++i < args.Count ? args[i] : throw new ArgumentException($"Option '{args[i - 1]}' needs a value.");

    private static double Seconds(string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double s) && s > 0
            ? s
            : throw new ArgumentException($"'{text}' is not a positive number of seconds.");

    private static List<string> List(string text, IReadOnlyList<string> known, string what)
    {
        var items = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToList();
        foreach (string item in items.Where(item => !known.Contains(item)))
        {
            throw new ArgumentException($"Unknown {what} '{item}'; known: {string.Join(", ", known)}.");
        }

        return items.Count > 0 ? items : throw new ArgumentException($"No {what} given.");
    }
}
