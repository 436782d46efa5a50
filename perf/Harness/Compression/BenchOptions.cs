using System.Globalization;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// How long each cell warms up and measures, and the codec sweep's time per level: the full profile is the
/// published 10 s warm-up and 20 s run; the short version (<c>--quick</c>, CI) a fraction of a second each.
/// </summary>
public sealed record BenchProfile(string Name, double WarmupSeconds, int WarmupCalls, double MeasureSeconds, int MinCalls, double SweepSecondsPerLevel, bool SweepEveryLevel)
{
    public static BenchProfile Full { get; } = new("full", 10, 1, 20, 1, 0.3, SweepEveryLevel: true);

    public static BenchProfile Quick { get; } = new("quick", 0.3, 2, 1, 3, 0.03, SweepEveryLevel: false);
}

/// <summary>A link the matrix runs over: loopback (no <see cref="Rate"/>), or a veth pair shaped with tbf at <see cref="Rate"/>.</summary>
public sealed record BenchLink(string Name, LinkRate? Rate)
{
    public const string LoopbackName = "loopback";

    public static BenchLink Loopback { get; } = new(LoopbackName, null);

    /// <summary>Parses <c>loopback</c> or a tc rate; the shaped link gets the benchmarks' small burst unless <paramref name="burst"/> is given.</summary>
    public static BenchLink Parse(string text, long? burst)
    {
        if (text == LoopbackName)
        {
            return Loopback;
        }

        LinkRate rate = LinkRate.Parse(text);
        return new BenchLink(rate.Text, rate with { Burst = burst ?? SmallBurst(rate.BitsPerSecond) });
    }

    /// <summary>
    /// Half a millisecond of the rate, at least two full Ethernet frames and at most 64 KiB (1 Gbit/s: 62,500 B;
    /// 100 Mbit/s: 6,250 B; 1.5 Mbit/s: 3,028 B): small enough that even a 10-order reply cannot pass at line rate
    /// from a full bucket, so the link's cost shows for small messages too (compression notes §7).
    /// </summary>
    public static long SmallBurst(long bitsPerSecond) => Math.Clamp(bitsPerSecond / 8 / 2000, 2 * 1514, 64 * 1024);
}

/// <summary>A message class with the sizes it runs at in this run.</summary>
public sealed record ClassSizes(MessageClass Class, IReadOnlyList<int> Sizes);

/// <summary>Options of the <c>compression</c> command after the profile's defaults and the command line are combined.</summary>
public sealed record BenchOptions
{
    public static readonly IReadOnlyList<string> FullLinks = [BenchLink.LoopbackName, "1gbit", "100mbit", "1.5mbit"];

    public BenchProfile Profile { get; init; } = BenchProfile.Full;

    public string? OutputDirectory { get; init; }

    /// <summary><c>soaphost</c>, <c>corewcf</c>, or null for CoreWCF when its server is built.</summary>
    public string? Server { get; init; }

    public bool Pin { get; init; } = true;

    public IReadOnlyList<BenchLink> Links { get; init; } = [.. FullLinks.Select(l => BenchLink.Parse(l, null))];

    public IReadOnlyList<Contender> Contenders { get; init; } = ContenderCatalog.Defaults;

    public IReadOnlyList<ClassSizes> Classes { get; init; } = [.. MessageClassCatalog.All.Select(c => new ClassSizes(c, c.Sizes))];

    /// <summary>Concurrent client processes on a shaped link (loopback has one: one call in flight, as published).</summary>
    public int Clients { get; init; } = 4;

    public string CommandLine { get; init; } = string.Empty;

    /// <summary>The options from the parsed values; throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static BenchOptions From(
        bool quick, string? output, string? server, bool noPin, string? links, string? contenders, string? classes, string? sizes,
        int? clients, long? burst, string? duration, string? warmup, string commandLine)
    {
        var options = new BenchOptions { Profile = quick ? BenchProfile.Quick : BenchProfile.Full, OutputDirectory = output, Pin = !noPin, CommandLine = commandLine };
        if (quick)
        {
            options = options with
            {
                Links = [BenchLink.Loopback],
                Contenders = [.. ContenderCatalog.QuickNames.Select(ContenderCatalog.Get)],
                Classes = [.. MessageClassCatalog.Quick.Select(q => new ClassSizes(MessageClassCatalog.Get(q.Class), q.Sizes))],
            };
        }

        if (server is not null)
        {
            options = options with { Server = server is "soaphost" or "corewcf" ? server : throw new ArgumentException("--server takes one of soaphost, corewcf.") };
        }

        if (burst is { } b && b < 1514)
        {
            throw new ArgumentException($"--burst {b}: a tbf bucket must hold at least one full frame (1514 bytes).");
        }

        if (links is not null || burst is not null)
        {
            options = options with { Links = [.. Names(links ?? string.Join(',', options.Links.Select(l => l.Name)), "link").Select(l => BenchLink.Parse(l, burst))] };
        }

        if (contenders is not null)
        {
            var named = Names(contenders, "contender").Select(ContenderCatalog.Get).ToList();
            options = options with { Contenders = named.Any(c => c.Name == ContenderCatalog.UncompressedName) ? named : [ContenderCatalog.Uncompressed, .. named] };
        }

        if (classes is not null)
        {
            options = options with { Classes = [.. Names(classes, "message class").Select(MessageClassCatalog.Get).Select(c => new ClassSizes(c, c.Sizes))] };
        }

        if (sizes is not null)
        {
            int[] parsed = [.. Names(sizes, "size").Select(s => int.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out int n) && n is >= 1 and <= Scenarios.MetzgerOrders.Count
                ? n : throw new ArgumentException($"Size '{s}' is not a number of orders from 1 to {Scenarios.MetzgerOrders.Count}."))];
            options = options with { Classes = [.. options.Classes.Select(c => c with { Sizes = parsed })] };
        }

        if (clients is { } k)
        {
            options = options with { Clients = k is >= 1 and <= 16 ? k : throw new ArgumentException($"--clients {k}: from 1 to 16 client processes.") };
        }

        if (duration is not null)
        {
            options = options with { Profile = options.Profile with { MeasureSeconds = Cli.HarnessOptions.Seconds(duration) } };
        }

        if (warmup is not null)
        {
            options = options with { Profile = options.Profile with { WarmupSeconds = Cli.HarnessOptions.Seconds(warmup) } };
        }

        return options;
    }

    private static List<string> Names(string text, string what)
    {
        var items = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Distinct().ToList();
        return items.Count > 0 ? items : throw new ArgumentException($"No {what} given.");
    }
}
