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

    /// <summary>Parses the comparison's options (the default command); throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static HarnessOptions Parse(IReadOnlyList<string> args) => ComparisonCli.Options(HarnessCli.ParseOrThrow(ComparisonCli.Create("run"), args));

    /// <summary>Maps the parsed values; the profile is chosen first so that --duration and --warmup override it whatever the order.</summary>
    internal static HarnessOptions From(bool quick, string? output, bool trace, bool noPin, string? link, string? server, string? scenarios, string? cases, string? duration, string? warmup)
    {
        var options = new HarnessOptions { Profile = quick ? Profile.Quick : Profile.Full, OutputDirectory = output, Trace = trace, Pin = !noPin };
        if (link is not null)
        {
            options = options with { Link = LinkRate.Parse(link) };
        }

        if (server is not null)
        {
            options = options with { Server = List(server, ["soaphost", "corewcf"], "server") is [var one] ? one : throw new ArgumentException("--server takes one of soaphost, corewcf.") };
        }

        if (scenarios is not null)
        {
            options = options with { Scenarios = List(scenarios, DefaultScenarios, "scenario") };
        }

        if (cases is not null)
        {
            options = options with { Cases = List(cases, ComparisonCases.All.Select(c => c.Name).ToList(), "case") };
        }

        if (duration is not null)
        {
            options = options with { Profile = options.Profile with { MeasureSeconds = Seconds(duration) } };
        }

        if (warmup is not null)
        {
            options = options with { Profile = options.Profile with { WarmupSeconds = Seconds(warmup) } };
        }

        return options;
    }

    internal static double Seconds(string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double s) && s > 0
            ? s
            : throw new ArgumentException($"'{text}' is not a positive number of seconds.");

    internal static List<string> List(string text, IReadOnlyList<string> known, string what)
    {
        var items = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToList();
        foreach (string item in items.Where(item => !known.Contains(item)))
        {
            throw new ArgumentException($"Unknown {what} '{item}'; known: {string.Join(", ", known)}.");
        }

        return items.Count > 0 ? items : throw new ArgumentException($"No {what} given.");
    }
}
