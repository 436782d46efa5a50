using System.CommandLine;
using System.Globalization;
using Surrogate.Perf.Harness.Latency;
using Surrogate.Perf.Harness.Latency.Matrix;

namespace Surrogate.Perf.Harness.Cli;

/// <summary>
/// <c>latency</c>: the latency and throughput matrix, or with <c>--soak</c> the soak. Values come from the preset
/// (default full), then the config file, then these options.
/// </summary>
public static class LatencyCli
{
    private static readonly Option<string?> Preset = new("--preset") { Description = "smoke (CI: about two minutes) or full (the default)" };
    private static readonly Option<string?> Config = new("--config") { Description = "a JSON config file: \"extends\" names a preset, its other top-level properties replace the preset's (perf/Harness/Latency/Presets)" };
    private static readonly Option<string?> Out = new("--out") { Description = "output folder (default perf/out/<yyyyMMdd-HHmmss>)" };
    private static readonly Option<string?> Server = new("--server") { Description = "soaphost or corewcf (default: corewcf when built, else soaphost)" };
    private static readonly Option<bool> NoPin = new("--no-pin") { Description = "do not pin server and client to separate cores" };
    private static readonly Option<string?> Duration = new("--duration") { Description = "measured seconds per cell" };
    private static readonly Option<string?> Warmup = new("--warmup") { Description = "warm-up seconds per cell" };
    private static readonly Option<string?> Sizes = new("--sizes") { Description = "payload sizes in bytes, e.g. 10,1000,100000" };
    private static readonly Option<string?> RemoteLink = new("--link") { Description = "the Remote scope's link rate (tc syntax; default from the config, 10gbit)" };
    private static readonly Option<bool> Soak = new("--soak") { Description = "run the soak: many clients over NetTcp with DataSets, every reply checked, server memory sampled" };
    private static readonly Option<string?> SoakSeconds = new("--soak-seconds") { Description = "the soak's duration (overrides the config)" };

    public static Command Create()
    {
        var command = new Command("latency", "latency and throughput over the WCF test matrix (scopes, bindings, instancing, call modes, serializers, data types, sizes); --soak for the soak");
        foreach (Option option in new Option[] { Preset, Config, Out, Server, NoPin, Duration, Warmup, Sizes, RemoteLink, Soak, SoakSeconds })
        {
            command.Options.Add(option);
        }

        command.SetAction((result, _) => LatencyCommand.RunAsync(Options(result)));
        return command;
    }

    /// <summary>Parses <c>latency</c>'s arguments (tests); throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static LatencyOptions Parse(IReadOnlyList<string> args) => Options(HarnessCli.ParseOrThrow(Create(), args));

    public static LatencyOptions Options(ParseResult r)
    {
        string? preset = r.GetValue(Preset), file = r.GetValue(Config);
        if (preset is not null && file is not null)
        {
            throw new ArgumentException("--preset and --config: give one (a config file names its preset with \"extends\").");
        }

        LatencyConfig config = file is not null ? LatencyConfig.Load(file) : LatencyConfig.Preset(preset ?? "full");
        if (r.GetValue(Duration) is { } duration)
        {
            config = config with { MeasureSeconds = HarnessOptions.Seconds(duration) };
        }

        if (r.GetValue(Warmup) is { } warmup)
        {
            config = config with { WarmupSeconds = HarnessOptions.Seconds(warmup) };
        }

        if (r.GetValue(Sizes) is { } sizes)
        {
            config = config with
            {
                Sizes = [.. sizes.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(s =>
                    int.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out int size) ? size : throw new ArgumentException($"'{s}' is not a size in bytes."))],
            };
        }

        if (r.GetValue(RemoteLink) is { } link)
        {
            config = config with { RemoteLinkRate = link };
        }

        if (r.GetValue(SoakSeconds) is { } soakSeconds)
        {
            double seconds = HarnessOptions.Seconds(soakSeconds);
            config = config with { Soak = config.Soak with { Seconds = seconds, WarmupSeconds = Math.Min(config.Soak.WarmupSeconds, seconds / 3) } };
        }

        string? server = r.GetValue(Server);
        if (server is not null && server is not ("soaphost" or "corewcf"))
        {
            throw new ArgumentException("--server takes one of soaphost, corewcf.");
        }

        return new LatencyOptions(config.Validate(), r.GetValue(Out), server, !r.GetValue(NoPin), r.GetValue(Soak), HarnessCli.Describe(r));
    }
}
