using System.Globalization;
using Spectre.Console;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Measurement;
using Surrogate.Perf.Harness.Reports;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The <c>compression</c> command's driver: for each link (loopback first, then each shaped rate) it starts the
/// server and the client processes, runs the codec sweep once (first link), then every cell (message class × size ×
/// contender; one client on loopback, <see cref="BenchOptions.Clients"/> on a shaped link; each class and size in
/// <see cref="BenchProfile.Rounds"/> interleaved rounds, <see cref="CellRounds"/>), lists what cannot work
/// or failed with the reason, fits the model and writes the reports.
/// </summary>
public static class CompressionCommand
{
    /// <summary>The name a failed codec sweep is listed under among the cells not run.</summary>
    public const string SweepName = "(codec sweep)";

    private static readonly string[] Columns = ["link", "contender", "class", "n", "ops/s", "resp KB", "srv cpu ms", "cli cpu ms", "srv cpu %", "cli cpu %", "stolen"];

    public static async Task<int> RunAsync(BenchOptions options)
    {
        ServerChoice? server = ServerChoice.Resolve(options.Server);
        if (server is null)
        {
            await Console.Error.WriteLineAsync(ServerChoice.NotBuilt);
            return 2;
        }

        if ((options.Links.Any(l => l.Rate is not null) || options.RateChange is not null) && NetworkLink.Missing() is { } missing)
        {
            await Console.Error.WriteLineAsync(missing);
            return 2;
        }

        string outDir = OutputFolder.Resolve(options.OutputDirectory);
        Directory.CreateDirectory(outDir);
        bool pin = options.Pin && Pinning.Available;
        BenchProfile profile = options.Profile;
        var environment = new BenchEnvironment(
            DateTimeOffset.UtcNow, profile.Name, options.CommandLine, Environment.MachineName,
            System.Runtime.InteropServices.RuntimeInformation.OSDescription, System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription,
            Environment.ProcessorCount,
            pin ? "server on core 0, every client process on core 1 (taskset)" : Pinning.Describe(options.Pin),
            server.Description,
            string.Create(CultureInfo.InvariantCulture,
                $"closed loops, one call in flight per client: {Loads(options)}; warm-up {profile.WarmupSeconds} s, then {profile.MeasureSeconds} s (at least {profile.MinCalls} calls) per client and cell, every client calling until all have theirs; ops/s adds each client's received bytes over its bytes per reply in that common window") +
                (profile.Rounds == 1 ? string.Empty : string.Create(CultureInfo.InvariantCulture,
                    $"; {profile.Rounds} rounds per class and size, every contender once a round in an order drawn for each round, a cell its median round")) +
                "; before the first round on each link, uncounted rounds of every contender on the first class and size (fresh processes run cold): " +
                (profile.LinkWarmupSeconds > 0 ? string.Create(CultureInfo.InvariantCulture, $"as many passes as fill {profile.LinkWarmupSeconds} s, then more (up to {BenchProfile.MostWarmUpPasses}) until the median contender ran at most 10% faster than in the pass before") : "one"),
            SocketByteCounter.Available ? "the kernel's TCP_INFO counters of each client's connections to the server, socket by socket, around the measured window" : "not measured (needs Linux)",
            "each process's Process.TotalProcessorTime and GC.GetTotalAllocatedBytes(precise) deltas over the window, divided by every client's calls; " +
                "thread-pool spinning off in every process (DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0), so waiting is not counted as work");

        LiveBoard.WidenWhenRedirected();
        AnsiConsole.MarkupLine($"[bold]Compression benchmarks[/], profile [bold]{profile.Name}[/], server: {Markup.Escape(server.Description)}");
        AnsiConsole.MarkupLine($"output: {Markup.Escape(outDir)}");
        AnsiConsole.MarkupLine(string.Create(CultureInfo.InvariantCulture, $"planned: about {options.EstimatedSeconds() / 60:0} minutes"));

        var cells = new List<BenchCell>();
        var notRun = new List<BenchNotRun>();
        var sweep = new List<SweepPoint>();
        var links = new List<BenchLinkReport>();
        var rateCells = new List<RateChangeCell>();
        BenchLinkReport? rateLink = null;
        int planned = (options.LinkRuns.Count * options.Classes.Sum(c => c.Sizes.Count) * options.Contenders.Count * options.Profile.Rounds) + options.WarmUpCells
            + options.RateChangeCells;
        using (var board = new LiveBoard(Columns, planned))
        {
            foreach (BenchLink link in options.LinkRuns)
            {
                links.Add(await RunLinkAsync(link, options, server, pin, board, cells, notRun, sweep));
            }

            if (options.RateChange is { } change)
            {
                rateLink = await RateChangeRun.RunAsync(change, options, server, pin, board, rateCells, notRun);
            }
        }

        var (model, modelMissing) = BenchModel.Fit(cells, sweep, options.Contenders, links);
        var report = new BenchReport(environment, links, cells, notRun, sweep, model, modelMissing)
        {
            Omissions = options.Omissions,
            RateChange = options.RateChange,
            RateChangeCells = rateCells,
            RateChangeLink = rateLink,
        };
        BenchReportWriters.WriteAll(report, outDir);
        AnsiConsole.MarkupLine($"{cells.Count} cells measured, {notRun.Count(n => n.Status == "failed")} failed, {notRun.Count(n => n.Status == "cannot work")} cannot work; " +
            $"wrote results.md, results.csv, results.json, sweep.csv, breakeven.csv and report.html to {Markup.Escape(outDir)}");
        return 0;
    }

    private static async Task<BenchLinkReport> RunLinkAsync(
        BenchLink link, BenchOptions options, ServerChoice server, bool pin, LiveBoard board, List<BenchCell> cells, List<BenchNotRun> notRun, List<SweepPoint> sweep)
    {
        int clients = link.Clients ?? (link.Rate is null ? 1 : options.Clients);
        NetworkLink? network = null;
        BenchProcesses? processes = null;
        string description = link.Rate is null ? "loopback (127.0.0.1), unshaped" : link.Rate.Describe();
        var plan = (from c in options.Classes from size in c.Sizes from contender in options.Contenders select (c.Class, size, contender)).ToList();
        var warmUp = new List<BenchWarmUp>();
        try
        {
            if (link.Rate is not null)
            {
                board.Status($"{link.Name}: creating the network namespace, veth pair and tbf qdiscs");
                network = NetworkLink.Create(link.Rate);
                description = network.Describe();
            }

            int rounds = options.Profile.Rounds;
            foreach (var (messageClass, size) in from c in options.Classes from size in c.Sizes select (c.Class, size))
            {
                LeftOut? leftOut = options.LeftOut.FirstOrDefault(o => o.Covers(link.Name, messageClass.Name, size));
                var runnable = new List<Contender>();
                foreach (Contender contender in options.Contenders)
                {
                    if ((leftOut?.Reason ?? contender.CannotWork(server.Name)) is { } reason)
                    {
                        notRun.Add(new BenchNotRun(link.Name, contender.Name, messageClass.Name, size, leftOut is null ? "cannot work" : "left out", reason));
                        board.Skip(rounds);
                        continue;
                    }

                    runnable.Add(contender);
                }

                var measured = runnable.ToDictionary(c => c.Name, _ => new List<BenchCell>());
                var failed = new Dictionary<string, string>();
                var orders = CellRounds.Orders(runnable, rounds, CellRounds.Seed($"{link.Name}/{messageClass.Name}/{size}"));
                for (int round = 0; round < rounds; round++)
                {
                    foreach (Contender contender in orders[round])
                    {
                        if (failed.ContainsKey(contender.Name))
                        {
                            board.Skip();
                            continue;
                        }

                        try
                        {
                            (processes, bool started) = await BenchProcesses.RunningOrStartAsync(processes, () =>
                            {
                                board.Status($"{link.Name}: starting the server and {clients} client process(es)");
                                return BenchProcesses.StartAsync(server, options.Contenders, options.Classes, clients, pin, network);
                            });
                            if (started && sweep.Count == 0 && !notRun.Any(n => n.Contender == SweepName))
                            {
                                await SweepAsync(link.Name, processes, options, board, sweep, notRun);
                            }

                            if (started)
                            {
                                warmUp.AddRange(await WarmUpAsync(link.Name, runnable, messageClass, size, processes, options.Profile, board));
                            }

                            string name = rounds == 1 ? contender.Name : $"{contender.Name} {round + 1}/{rounds}";
                            measured[contender.Name].Add(await MeasureAsync(link.Name, name, contender, messageClass, size, processes, options.Profile, board));
                        }
                        catch (InvalidOperationException e)
                        {
                            // A round that fails fails the cell: a median of the rounds left would not be the same measure.
                            failed[contender.Name] = e.Message.ReplaceLineEndings(" ");
                            board.Skip();
                        }
                    }
                }

                foreach (Contender contender in runnable)
                {
                    if (failed.TryGetValue(contender.Name, out string? error))
                    {
                        notRun.Add(new BenchNotRun(link.Name, contender.Name, messageClass.Name, size, "failed", error));
                    }
                    else
                    {
                        cells.Add(CellRounds.Median(measured[contender.Name]));
                    }
                }
            }
        }
        catch (InvalidOperationException e)
        {
            // The link could not be set up: its cells are listed as failed with the reason.
            foreach (var (messageClass, size, contender) in plan.Where(p => !cells.Any(c => Same(c.Link, c.Contender, c.Class, c.Size, link, p))
                && !notRun.Any(n => Same(n.Link, n.Contender, n.Class, n.Size, link, p))))
            {
                notRun.Add(new BenchNotRun(link.Name, contender.Name, messageClass.Name, size, "failed", e.Message.ReplaceLineEndings(" ")));
                board.Skip(options.Profile.Rounds);
            }
        }
        finally
        {
            if (processes is not null)
            {
                await processes.DisposeAsync();
            }
        }

        string? statistics = network?.Statistics();
        network?.Dispose();
        return new BenchLinkReport(link.Name, link.Rate?.BitsPerSecond, link.Rate?.BurstBytes, clients, description, statistics,
            DefaultLoad: clients == (link.Rate is null ? 1 : options.Clients)) { WarmUp = warmUp };
    }

    /// <summary>
    /// Uncounted rounds of every contender on a link's fresh server and clients: <see cref="BenchProfile.FewestWarmUpPasses"/>,
    /// and with a link warm-up time, more until a pass <see cref="BenchProfile.WarmUpSettled"/> (at most
    /// <see cref="BenchProfile.MostWarmUpPasses"/>). Fresh processes run slow for about 40 s under load: in the
    /// 2026-11-27 grid the first five contenders of each link's first cell measured 14–77% of their later rounds in round
    /// one (loopback, 1 Gbit/s, 100 Mbit/s), which made that cell's median the lower of two rounds and taught the adaptive
    /// encoder speeds the warm process does not have. A contender that fails here is left to fail where it counts.
    /// </summary>
    private static async Task<List<BenchWarmUp>> WarmUpAsync(
        string link, IReadOnlyList<Contender> runnable, MessageClass messageClass, int size, BenchProcesses processes, BenchProfile profile, LiveBoard board)
    {
        var runs = new List<BenchWarmUp>();
        int passes = profile.FewestWarmUpPasses(runnable.Count);
        int most = profile.LinkWarmupSeconds > 0 ? Math.Max(passes, BenchProfile.MostWarmUpPasses) : passes;
        Dictionary<string, double>? previous = null;
        for (int pass = 0; pass < most; pass++)
        {
            if (pass >= passes)
            {
                board.Extend(runnable.Count);
            }

            var current = new Dictionary<string, double>();
            foreach (Contender contender in runnable)
            {
                try
                {
                    BenchCell cell = await MeasureAsync(link, $"{contender.Name} warm-up {pass + 1}", contender, messageClass, size, processes, profile, board);
                    runs.Add(new BenchWarmUp(contender.Name, messageClass.Name, size, cell.OpsPerSecond));
                    current[contender.Name] = cell.OpsPerSecond;
                }
                catch (InvalidOperationException)
                {
                    board.Skip(); // measured (and reported) in the rounds that count
                }
            }

            bool settled = previous is not null && BenchProfile.WarmUpSettled(previous, current);
            previous = current;
            if (pass + 1 >= passes && settled)
            {
                break;
            }
        }

        return runs;
    }

    /// <summary>One round of one contender's cell, shown on the board as <paramref name="name"/> (the contender and, with rounds, which round).</summary>
    private static async Task<BenchCell> MeasureAsync(
        string link, string name, Contender contender, MessageClass messageClass, int size, BenchProcesses processes, BenchProfile profile, LiveBoard board)
    {
        string label = $"{link} {name} {messageClass.Name} {messageClass.SizeLabel(size)}";
        board.Status($"{label}: warming up");
        var spec = new BenchCellSpec(contender.Name, messageClass.Name, size, processes.Endpoints[BenchContract.Key(contender.Name, messageClass.Contract)],
            profile.WarmupSeconds, profile.WarmupCalls, profile.MeasureSeconds, profile.MinCalls);
        var attempts = new List<BenchCell>();
        do
        {
            string again = attempts.Count == 0 ? string.Empty : $" (again: {Percent(attempts[^1].StolenShare ?? 0)} stolen)";
            attempts.Add(await processes.MeasureAsync(link, spec, (calls, seconds) =>
                board.Status(string.Create(CultureInfo.InvariantCulture, $"{label}{again}: {seconds:0.0}/{profile.MeasureSeconds:0.#} s, {calls} calls"))));
        }
        while (CellAttempts.Another(attempts));

        BenchCell cell = CellAttempts.Keep(attempts);
        board.Row(link, name, messageClass.Name, messageClass.SizeLabel(size), Num(cell.OpsPerSecond), Kb(cell.ResponseBytes),
            Ms(cell.ServerCpuMs), Ms(cell.ClientCpuMs), Percent(cell.ServerCpuShare), Percent(cell.ClientCpuShare),
            cell.StolenShare is { } stolen ? Percent(stolen) + (cell.Attempts > 1 ? $" ({cell.Attempts} tries)" : string.Empty) : "-");
        return cell;
    }

    /// <summary>The codec sweep on the first client: per message class and size, every level (full profile) or the contenders' levels.</summary>
    private static async Task SweepAsync(string link, BenchProcesses processes, BenchOptions options, LiveBoard board, List<SweepPoint> sweep, List<BenchNotRun> notRun)
    {
        var levels = options.Profile.SweepEveryLevel
            ? Enum.GetValues<Surrogate.Compression.CompressionCodec>().SelectMany(codec => Surrogate.Compression.CompressionOptions.Levels(codec).Select(level => $"{codec}-{level}".ToLowerInvariant()))
            : options.Contenders.Where(c => c.ModelCodec is not null && c.BuiltIn == BuiltInCompression.None).Select(c => c.Name);
        string[] names = [.. levels.Concat(BuiltInStandIns(options)).Distinct()];
        foreach (ClassSizes c in options.Classes)
        {
            foreach (int size in c.Sizes)
            {
                board.Status($"codec sweep: {c.Class.Name} {size}");
                string address = processes.Endpoints[BenchContract.Key(ContenderCatalog.UncompressedName, c.Class.Contract)];
                try
                {
                    sweep.AddRange(await processes.SweepAsync(new SweepSpec(c.Class.Name, size, address, names, options.Profile.SweepSecondsPerLevel)));
                }
                catch (InvalidOperationException e)
                {
                    notRun.Add(new BenchNotRun(link, SweepName, c.Class.Name, size, "failed", "codec sweep: " + e.Message.ReplaceLineEndings(" ")));
                }
            }
        }
    }

    /// <summary>The levels that stand for WCF's CompressionFormat in the model (GZip or Deflate 6), when the sweep would not have them anyway.</summary>
    private static IEnumerable<string> BuiltInStandIns(BenchOptions options) => options.Profile.SweepEveryLevel
        ? []
        : options.Contenders.Where(c => c.BuiltIn != BuiltInCompression.None).Select(c => $"{c.ModelCodec!.Value.Codec}-{c.ModelCodec.Value.Level}".ToLowerInvariant())
            .Where(name => !options.Contenders.Any(c => c.Name == name));

    /// <summary>How many client processes ran on each link: <c>--loads</c> when given, else the profile's default loads.</summary>
    private static string Loads(BenchOptions options) => options.Loads is { } loads
        ? $"{string.Join(" and ", loads)} client processes on every link"
        : $"loopback one client (Part 3), a shaped link {options.Clients} client processes (Part 4)";

    private static bool Same(string link, string contender, string messageClass, int size, BenchLink l, (MessageClass Class, int Size, Contender Contender) p) =>
        link == l.Name && contender == p.Contender.Name && messageClass == p.Class.Name && size == p.Size;
}
