using Surrogate.Perf.Harness.Latency.Client;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// One measured cell: a contender, message class and size over a link, with every client's closed loop added up.
/// Per-op figures divide by the calls of all clients; CPU shares are of one core over the measured window.
/// <see cref="Decisions"/>: a policy contender's server-side choices over the window (null for the others).
/// <see cref="RoundOpsPerSecond"/>: with several rounds, each round's ops/s in run order; the other figures are the
/// median round's (<see cref="CellRounds"/>), its stolen share and attempts too.
/// </summary>
public sealed record BenchCell(
    string Link,
    string Contender,
    string Class,
    int Size,
    int Clients,
    long Calls,
    double Seconds,
    double OpsPerSecond,
    double ResponseBytes,
    double RequestBytes,
    double ClientCpuMs,
    double ServerCpuMs,
    double ClientAllocatedBytes,
    double ServerAllocatedBytes,
    double ClientCpuShare,
    double ServerCpuShare,
    Percentiles Latency,
    IReadOnlyList<DecisionCount>? Decisions = null,
    IReadOnlyList<double>? RoundOpsPerSecond = null)
{
    /// <summary>The share of the machine's CPU time a hypervisor stole from GO to the last result (<see cref="Measurement.StolenTime"/>); null where unknown.</summary>
    public double? StolenShare { get; init; }

    /// <summary>How many times this round was measured: more than once when stolen time spoilt a window (<see cref="CellAttempts"/>).</summary>
    public int Attempts { get; init; } = 1;
}

/// <summary>A planned cell that did not run: <c>cannot work</c> (with why) or <c>failed</c> (with the error).</summary>
public sealed record BenchNotRun(string Link, string Contender, string Class, int Size, string Status, string Reason);

/// <summary>
/// A link of the run: loopback, or the shaped veth pair with its rate, tbf burst and qdisc counters after the run;
/// <paramref name="DefaultLoad"/> false for a second load of the same link (<c>100mbit-1c</c>), which the model leaves out.
/// </summary>
public sealed record BenchLinkReport(string Name, long? BitsPerSecond, long? BurstBytes, int Clients, string Description, string? QdiscStatistics, bool DefaultLoad = true)
{
    /// <summary>The rounds before the first on this link's fresh server and clients: every contender on the first class and size, in one or more passes, not counted.</summary>
    public IReadOnlyList<BenchWarmUp> WarmUp { get; init; } = [];
}

/// <summary>One contender's uncounted run in a link's warm-up rounds, and the ops/s it measured there.</summary>
public sealed record BenchWarmUp(string Contender, string Class, int Size, double OpsPerSecond);

/// <summary>Where and how the run was made; the head of every output file.</summary>
public sealed record BenchEnvironment(
    DateTimeOffset StartedUtc,
    string Profile,
    string CommandLine,
    string Machine,
    string OperatingSystem,
    string Runtime,
    int ProcessorCount,
    string Pinning,
    string Server,
    string LoadModel,
    string BytesMethod,
    string CostMethod);

/// <summary>Everything a run produced: the source of results.json and of the other writers.</summary>
public sealed record BenchReport(
    BenchEnvironment Environment,
    IReadOnlyList<BenchLinkReport> Links,
    IReadOnlyList<BenchCell> Cells,
    IReadOnlyList<BenchNotRun> NotRun,
    IReadOnlyList<SweepPoint> Sweep,
    BenchModel? Model,
    string? ModelMissing)
{
    /// <summary>The policy contenders' cells against the oracle and uncompressed (<see cref="PolicyVerdicts"/>).</summary>
    public IReadOnlyList<PolicyVerdict> Policies => PolicyVerdicts.Evaluate(Cells);

    /// <summary>What the run's profile leaves out of the grid (the grid profile's list; empty otherwise).</summary>
    public IReadOnlyList<string> Omissions { get; init; } = [];

    /// <summary>The mid-run rate change, when the run had one, and its cells (kept apart from <see cref="Cells"/>: two rates in one window).</summary>
    public RateChange? RateChange { get; init; }

    public IReadOnlyList<RateChangeCell> RateChangeCells { get; init; } = [];

    /// <summary>The rate change's veth pair (its description says both rates), or null.</summary>
    public BenchLinkReport? RateChangeLink { get; init; }

    /// <summary>The policies' recovery after the rate change (<see cref="Recovery"/>).</summary>
    public IReadOnlyList<RateRecovery> Recoveries => RateChange is { } change ? Recovery.Evaluate(RateChangeCells, change) : [];

    /// <summary>The size as the reports write it: orders as a number, grid sizes as "150 KB" or "mix".</summary>
    public static string SizeLabel(string messageClass, int size) =>
        MessageClassCatalog.All.FirstOrDefault(c => c.Name == messageClass) is { } c ? c.SizeLabel(size) : size.ToString(System.Globalization.CultureInfo.InvariantCulture);

    public BenchCell? Find(string link, string contender, string messageClass, int size) =>
        Cells.FirstOrDefault(c => c.Link == link && c.Contender == contender && c.Class == messageClass && c.Size == size);
}

/// <summary>The ops/s the 2011 posts published (Metzger, "Compressing messages in WCF", parts 3 and 4), for n = 10, 100, 1000.</summary>
public static class PublishedFigures
{
    public static readonly int[] Sizes = [10, 100, 1000];

    /// <summary>Part 3, one machine, one call in flight.</summary>
    public static readonly IReadOnlyDictionary<string, double[]> OneMachine = new Dictionary<string, double[]>
    {
        [ContenderCatalog.UncompressedName] = [1382.75, 358.50, 41.48],
        ["format-gzip"] = [755.60, 232.38, 27.64],
        ["format-deflate"] = [788.99, 243.98, 28.67],
    };

    /// <summary>Part 4, four clients against one server, by link.</summary>
    public static readonly IReadOnlyDictionary<string, IReadOnlyDictionary<string, double[]>> Network = new Dictionary<string, IReadOnlyDictionary<string, double[]>>
    {
        ["1gbit"] = new Dictionary<string, double[]>
        {
            [ContenderCatalog.UncompressedName] = [27810, 6357, 666],
            ["format-gzip"] = [5746, 2411, 290],
            ["format-deflate"] = [5864, 2555, 306],
        },
        ["100mbit"] = new Dictionary<string, double[]>
        {
            [ContenderCatalog.UncompressedName] = [4804, 730, 67],
            ["format-gzip"] = [3971, 2042, 293],
            ["format-deflate"] = [4158, 2125, 307],
        },
    };

    /// <summary>The published figure for a contender, link and size, or null (2011 had GZip and Deflate only, and no 1.5 Mbit/s link).</summary>
    public static double? Get(string link, string contender, int size)
    {
        IReadOnlyDictionary<string, double[]>? table = link == BenchLink.LoopbackName ? OneMachine : Network.GetValueOrDefault(link);
        int index = Array.IndexOf(Sizes, size);
        return table is not null && index >= 0 && table.TryGetValue(contender, out double[]? figures) ? figures[index] : null;
    }
}
