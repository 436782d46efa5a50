using System.Globalization;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// How long each cell warms up and measures, and the codec sweep's time per level: the full profile is the
/// published 10 s warm-up and 20 s run; the short version (<c>--quick</c>, CI) a fraction of a second each.
/// <paramref name="Rounds"/>: how many times every contender of a message class and size is measured, the
/// contenders interleaved (<see cref="CellRounds"/>); a cell's figures are its median round's.
/// </summary>
public sealed record BenchProfile(
    string Name, double WarmupSeconds, int WarmupCalls, double MeasureSeconds, int MinCalls, double SweepSecondsPerLevel, bool SweepEveryLevel, int Rounds = 1,
    double LinkWarmupSeconds = 0)
{
    /// <summary>Seconds a cell takes besides its warm-up and window (starting and stopping the clients' loops), for estimates.</summary>
    public const double CellOverheadSeconds = 1.5;

    public static BenchProfile Full { get; } = new("full", 10, 1, 20, 1, 0.3, SweepEveryLevel: true, LinkWarmupSeconds: 45);

    public static BenchProfile Quick { get; } = new("quick", 0.3, 2, 1, 3, 0.03, SweepEveryLevel: false);

    /// <summary>
    /// The grid (<c>--profile grid</c>): three rounds of a 2 s warm-up and 2 s per cell, at least two calls, the
    /// contenders' levels swept. One window per contender made each cell's best static contender the highest of
    /// several noisy draws (between two grids a static cell moved by a standard deviation of 5-11%, up to 2x),
    /// which a policy that chose exactly as it did could not match; a median of interleaved rounds cuts that bias, and
    /// the oracle's figure held out from its choice (<see cref="HeldOutOracle"/>) removes what remains of it.
    /// </summary>
    public static BenchProfile Grid { get; } = new("grid", 2, 2, 2, 2, 0.1, SweepEveryLevel: false, Rounds: 3, LinkWarmupSeconds: 45);

    /// <summary>
    /// Uncounted passes over <paramref name="contenders"/> contenders on a link's fresh processes: one, and as many as
    /// fill <see cref="LinkWarmupSeconds"/>. Under load on two cores fresh processes ran slow for about 40 s: tiered
    /// compilation, as far as a run with it off shows (no such stretch, and no profile-guided code after it either).
    /// </summary>
    public int WarmUpPasses(int contenders) =>
        contenders == 0 ? 0 : Math.Max(1, (int)Math.Ceiling(LinkWarmupSeconds / (contenders * (WarmupSeconds + MeasureSeconds + CellOverheadSeconds))));

    /// <summary>
    /// The passes a link's warm-up takes at least: <see cref="WarmUpPasses"/>, and with a link warm-up time at least
    /// two, the fewest that can show they <see cref="WarmUpSettled"/>.
    /// </summary>
    public int FewestWarmUpPasses(int contenders) =>
        LinkWarmupSeconds > 0 && contenders > 0 ? Math.Max(2, WarmUpPasses(contenders)) : WarmUpPasses(contenders);

    /// <summary>The most warm-up passes a link takes while they have not <see cref="WarmUpSettled"/>.</summary>
    public const int MostWarmUpPasses = 4;

    /// <summary>
    /// Whether a link's warm-up passes have settled: the median contender measured in both <paramref name="previous"/> and
    /// <paramref name="current"/> ran at most 10% faster in the later one. Time alone was not enough: in the 2026-11-29
    /// grid one 45 s pass left the first six contenders of loopback's first round at 0.6 of their later rounds.
    /// </summary>
    public static bool WarmUpSettled(IReadOnlyDictionary<string, double> previous, IReadOnlyDictionary<string, double> current)
    {
        // A contender missing from either pass (or measured at 0) gives no finite gain and is left out.
        double[] gains = [.. current.Select(c => c.Value / previous.GetValueOrDefault(c.Key)).Where(double.IsFinite).Order()];
        return gains.Length > 0 && gains[(gains.Length - 1) / 2] <= 1.10;
    }
}

/// <summary>
/// A link the matrix runs over: loopback (no <see cref="Rate"/>), or a veth pair shaped with tbf at <see cref="Rate"/>;
/// <see cref="Clients"/> set when the run has loads (<c>--loads</c>), else the link's default load.
/// </summary>
public sealed record BenchLink(string Name, LinkRate? Rate, int? Clients = null)
{
    /// <summary>This link at a load: its plain name at the default load (loopback one client, a shaped link <paramref name="defaultClients"/>), else <c>name-Nc</c>.</summary>
    public BenchLink At(int clients, int defaultClients) =>
        this with { Name = clients == (Rate is null ? 1 : defaultClients) ? Name : $"{Name}-{clients}c", Clients = clients };

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

/// <summary>Cells a profile leaves out on purpose: a class (and size, or every size) on a link, with why.</summary>
public sealed record LeftOut(string Link, string Class, int? Size, string Reason)
{
    public bool Covers(string link, string messageClass, int size) =>
        (Link == link || link.StartsWith(Link + "-", StringComparison.Ordinal)) && Class == messageClass && (Size is null || Size == size);
}

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

    /// <summary>The 2011 Orders and the DataSet payloads by default; the grid classes with <c>--classes</c> or the grid profile.</summary>
    public IReadOnlyList<ClassSizes> Classes { get; init; } = [.. MessageClassCatalog.All.Where(c => c.Kind is null).Select(c => new ClassSizes(c, c.Sizes))];

    /// <summary>Concurrent client processes on a shaped link (loopback has one: one call in flight, as published).</summary>
    public int Clients { get; init; } = 4;

    /// <summary>Client counts every link runs at (<c>--loads</c>; the grid: one and <see cref="Clients"/>), or null for each link's default load.</summary>
    public IReadOnlyList<int>? Loads { get; init; }

    /// <summary>The mid-run link-rate change (<c>--rate-change</c>), or null.</summary>
    public RateChange? RateChange { get; init; }

    /// <summary>The classes and sizes the rate change runs (the grid: medium at 150 KB and the mix; otherwise the run's).</summary>
    public IReadOnlyList<ClassSizes>? RateChangeClasses { get; init; }

    /// <summary>Cells the profile leaves out, listed in the reports with the reason.</summary>
    public IReadOnlyList<LeftOut> LeftOut { get; init; } = [];

    /// <summary>What the profile leaves out of the grid as a whole (the report's "left out" section).</summary>
    public IReadOnlyList<string> Omissions { get; init; } = [];

    /// <summary>Every link at every load of the run, in run order.</summary>
    public IReadOnlyList<BenchLink> LinkRuns => Loads is null ? Links : [.. Links.SelectMany(l => Loads.Select(k => l.At(k, Clients)))];

    public string CommandLine { get; init; } = string.Empty;

    /// <summary>The options from the parsed values; throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static BenchOptions From(
        bool quick, string? output, string? server, bool noPin, string? links, string? contenders, string? classes, string? sizes,
        int? clients, long? burst, string? duration, string? warmup, string commandLine,
        string? profile = null, string? loads = null, string? rateChange = null, int? rounds = null)
    {
        if (quick && profile is not null)
        {
            throw new ArgumentException("--quick and --profile are alternatives: give one.");
        }

        var options = new BenchOptions { Profile = quick ? BenchProfile.Quick : BenchProfile.Full, OutputDirectory = output, Pin = !noPin, CommandLine = commandLine };
        options = profile switch
        {
            null or "full" => options,
            "quick" => Quickly(options),
            "grid" => GridProfile.Apply(options),
            _ => throw new ArgumentException($"--profile {profile}: one of full, quick, grid."),
        };
        if (quick)
        {
            options = Quickly(options);
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
            var parsed = Names(sizes, "size");
            options = options with { Classes = [.. options.Classes.Select(c => c with { Sizes = [.. parsed.Select(c.Class.ParseSize)] })] };
        }

        if (clients is { } k)
        {
            options = options with { Clients = k is >= 1 and <= 16 ? k : throw new ArgumentException($"--clients {k}: from 1 to 16 client processes.") };
        }

        if (loads is not null)
        {
            options = options with
            {
                Loads = [.. Names(loads, "load").Select(l => int.TryParse(l, NumberStyles.None, CultureInfo.InvariantCulture, out int n) && n is >= 1 and <= 16
                    ? n : throw new ArgumentException($"--loads {l}: from 1 to 16 client processes."))],
            };
        }
        else if (options.Profile.Name == BenchProfile.Grid.Name)
        {
            options = options with { Loads = [.. new[] { 1, options.Clients }.Distinct()] };
        }

        if (rateChange is not null)
        {
            options = options with { RateChange = Compression.RateChange.Parse(rateChange, burst) };
        }

        if (duration is not null)
        {
            options = options with { Profile = options.Profile with { MeasureSeconds = Cli.HarnessOptions.Seconds(duration) } };
        }

        if (warmup is not null)
        {
            options = options with { Profile = options.Profile with { WarmupSeconds = Cli.HarnessOptions.Seconds(warmup) } };
        }

        if (rounds is not null)
        {
            options = options with
            {
                Profile = options.Profile with { Rounds = rounds is >= 1 and <= 9 ? rounds.Value : throw new ArgumentException($"--rounds {rounds}: from 1 to 9.") },
            };
        }

        return options;
    }

    /// <summary>The uncounted cells the run starts every link with, at least (<see cref="BenchProfile.FewestWarmUpPasses"/> over the contenders).</summary>
    public int WarmUpCells => LinkRuns.Count * Profile.FewestWarmUpPasses(Contenders.Count) * Contenders.Count;

    /// <summary>The rate change's cells: every contender on each of its classes and sizes; none without a rate change.</summary>
    public int RateChangeCells => RateChange is null ? 0 : (RateChangeClasses ?? Classes).Sum(c => c.Sizes.Count) * Contenders.Count;

    /// <summary>Planned seconds: every cell's warm-up, window and about 1.5 s of connecting and reading counters; each link's start; the sweep; the rate change.</summary>
    public double EstimatedSeconds()
    {
        const double PerCell = BenchProfile.CellOverheadSeconds, PerLink = 15;
        int messageCells = LinkRuns.Sum(l => Classes.Sum(c => c.Sizes.Count(size => !LeftOut.Any(o => o.Covers(l.Name, c.Class.Name, size)))));
        int levels = Profile.SweepEveryLevel ? 60 : Contenders.Count;
        double seconds = (((messageCells * Profile.Rounds * Contenders.Count) + WarmUpCells) * (Profile.WarmupSeconds + Profile.MeasureSeconds + PerCell))
            + (LinkRuns.Count * PerLink) + (Classes.Sum(c => c.Sizes.Count) * levels * 2 * Math.Max(Profile.SweepSecondsPerLevel, 0.05));
        if (RateChange is { } change)
        {
            seconds += PerLink + (RateChangeCells * (Profile.WarmupSeconds + change.WindowSeconds + PerCell + 1));
        }

        return seconds;
    }

    private static BenchOptions Quickly(BenchOptions options) => options with
    {
        Profile = BenchProfile.Quick,
        Links = [BenchLink.Loopback],
        Contenders = [.. ContenderCatalog.QuickNames.Select(ContenderCatalog.Get)],
        Classes = [.. MessageClassCatalog.Quick.Select(q => new ClassSizes(MessageClassCatalog.Get(q.Class), q.Sizes))],
    };

    private static List<string> Names(string text, string what)
    {
        var items = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Distinct().ToList();
        return items.Count > 0 ? items : throw new ArgumentException($"No {what} given.");
    }
}
