using System.Globalization;
using System.Text.Json;
using HdrHistogram;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The processes of one link: the server (core 0; inside the link's namespace when shaped) and the client processes
/// (all on core 1), started once per link. <see cref="MeasureAsync"/> runs one cell on every client at once: each
/// connects and warms up, the driver snapshots the server, then GO starts every closed loop together.
/// </summary>
public sealed class BenchProcesses : IAsyncDisposable
{
    private static readonly TimeSpan StartupTimeout = TimeSpan.FromMinutes(3);
    private static readonly TimeSpan CellTimeout = TimeSpan.FromMinutes(10);
    /// <summary>
    /// Thread-pool workers block instead of spinning while they wait for work, in every process of the run: CPU per
    /// reply then counts work, not spinning, and the client processes sharing core 1 do not burn it for each other.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> Environment = new Dictionary<string, string> { ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0" };

    private readonly TerminationSignals signals;

    private BenchProcesses(ChildProcess server, IReadOnlyList<ChildProcess> clients, IReadOnlyDictionary<string, string> endpoints)
    {
        Server = server;
        Clients = clients;
        Endpoints = endpoints;
        signals = TerminationSignals.Register(() =>
        {
            server.Kill();
            foreach (ChildProcess client in clients)
            {
                client.Kill();
            }
        });
    }

    public ChildProcess Server { get; }

    public IReadOnlyList<ChildProcess> Clients { get; }

    /// <summary>The server's endpoints by key (<c>contender/contract</c>); contenders the server cannot serve are absent.</summary>
    public IReadOnlyDictionary<string, string> Endpoints { get; }

    public bool Broken => Server.HasExited || Clients.Any(c => c.HasExited);

    /// <summary>
    /// <paramref name="current"/> while all its processes run; otherwise disposes it and returns <paramref name="start"/>'s
    /// processes, with <paramref name="started"/> true (a crashed server or client takes only its own cell with it).
    /// </summary>
    public static async Task<(BenchProcesses Processes, bool Started)> RunningOrStartAsync(BenchProcesses? current, Func<Task<BenchProcesses>> start)
    {
        if (current is { Broken: false })
        {
            return (current, false);
        }

        if (current is not null)
        {
            await current.DisposeAsync();
        }

        return (await start(), true);
    }

    /// <summary>Starts the server (it builds <paramref name="classes"/>' payloads first) and <paramref name="clients"/> client processes.</summary>
    public static async Task<BenchProcesses> StartAsync(ServerChoice choice, IReadOnlyList<Contender> contenders, IEnumerable<ClassSizes> classes, int clients, bool pin, NetworkLink? link)
    {
        string[] args = BenchServeArgs.Format(contenders, link?.ServerAddress);
        IReadOnlyList<string> program = choice.Program is null
            ? ChildProcess.HarnessProgram("compression-serve", args)
            : [.. choice.Program, "compression-serve", .. args];
        ChildProcess server = ChildProcess.StartCommand("server", pin ? 0 : null, link?.ExecPrefix ?? [], program, Environment);
        var started = new List<ChildProcess>();
        try
        {
            var endpoints = JsonSerializer.Deserialize<Dictionary<string, string>>(await server.ExpectAsync("LISTENING", StartupTimeout))!;
            await server.SendAsync("PRELOAD " + string.Join(',', PreloadItems(classes)));
            await server.ExpectAsync("PRELOADED", StartupTimeout);
            for (int i = 0; i < clients; i++)
            {
                started.Add(ChildProcess.StartCommand("client " + (i + 1).ToString(CultureInfo.InvariantCulture), pin ? 1 : null, [],
                    ChildProcess.HarnessProgram("compression-client"), Environment));
            }

            foreach (ChildProcess client in started)
            {
                await client.ExpectAsync("CLIENT-READY", StartupTimeout);
            }

            return new BenchProcesses(server, started, endpoints);
        }
        catch
        {
            foreach (ChildProcess client in started)
            {
                await client.DisposeAsync();
            }

            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>The codec sweep of one message class and size, on the first client.</summary>
    public async Task<IReadOnlyList<SweepPoint>> SweepAsync(SweepSpec spec)
    {
        await Clients[0].SendAsync("SWEEP " + JsonSerializer.Serialize(spec));
        return JsonSerializer.Deserialize<List<SweepPoint>>(await Clients[0].ExpectAsync("SWEPT", CellTimeout))!;
    }

    /// <summary>The server's <c>PRELOAD</c> items: <c>class:size</c> of every class and size of the run.</summary>
    public static IEnumerable<string> PreloadItems(IEnumerable<ClassSizes> classes) =>
        classes.SelectMany(c => c.Sizes.Select(size => c.Class.Name + ":" + size.ToString(CultureInfo.InvariantCulture))).Distinct();

    /// <summary>Runs one cell on every client; <paramref name="progress"/> gets the calls so far and the seconds of the first client.</summary>
    public async Task<BenchCell> MeasureAsync(string link, BenchCellSpec spec, Action<long, double> progress) =>
        (await RunCellAsync(link, spec, progress, null)).Cell;

    /// <summary>
    /// Runs one cell during which <paramref name="changeRate"/> runs <paramref name="change"/>'s seconds after GO (the
    /// driver changes the link's rate then), and returns it with every client's replies per bucket added up.
    /// </summary>
    public async Task<RateChangeCell> MeasureRateChangeAsync(string link, BenchCellSpec spec, RateChange change, Action changeRate, Action<long, double> progress)
    {
        var (cell, measured) = await RunCellAsync(link, spec, progress, async () =>
        {
            await Task.Delay(TimeSpan.FromSeconds(change.AtSeconds));
            changeRate();
        });
        return new RateChangeCell(cell, Recovery.Combine(measured.Select(m => (IReadOnlyList<int>)(m.Timeline ?? [])), change.WindowSeconds));
    }

    private async Task<(BenchCell Cell, IReadOnlyList<BenchCellMeasurement> Measured)> RunCellAsync(string link, BenchCellSpec spec, Action<long, double> progress, Func<Task>? midRun)
    {
        string line = "CELL " + JsonSerializer.Serialize(spec);
        await Task.WhenAll(Clients.Select(c => c.SendAsync(line)));
        await Task.WhenAll(Clients.Select(c => c.ExpectAsync("READY", CellTimeout)));
        Contender contender = ContenderCatalog.Get(spec.Contender);
        if (contender.IsPolicy)
        {
            await ServerDecisionsAsync(spec.Contender); // drops the warm-up's
        }

        ProcessStats before = await ServerStatsAsync();
        CpuTicks? machineBefore = StolenTime.Read();
        await Task.WhenAll(Clients.Select(c => c.SendAsync("GO")));
        Task midRunTask = midRun?.Invoke() ?? Task.CompletedTask;
        var counts = new long[Clients.Count];
        var seconds = new double[Clients.Count];
        Action<string> Progress(int i) => other =>
        {
            if (other.Split(' ') is ["PROGRESS", var calls, var elapsed])
            {
                counts[i] = long.Parse(calls, CultureInfo.InvariantCulture);
                seconds[i] = double.Parse(elapsed, CultureInfo.InvariantCulture);
                progress(counts.Sum(), seconds.Max());
            }
        };

        await Task.WhenAll(Clients.Select((c, i) => c.ExpectAsync("MET", CellTimeout, Progress(i))));
        await Task.WhenAll(Clients.Select(c => c.SendAsync("STOP")));
        string[] results = await Task.WhenAll(Clients.Select((c, i) => c.ExpectAsync("RESULT", CellTimeout, Progress(i))));
        await midRunTask;
        double? stolen = StolenTime.Share(machineBefore, StolenTime.Read());
        ProcessStats server = (await ServerStatsAsync()).Minus(before);
        IReadOnlyList<DecisionCount>? decisions = contender.IsPolicy ? await ServerDecisionsAsync(spec.Contender) : null;
        var measured = results.Select(r => JsonSerializer.Deserialize<BenchCellMeasurement>(r)!).ToList();
        return (Combine(link, spec, measured, server, decisions) with { StolenShare = stolen }, measured);
    }

    public async ValueTask DisposeAsync()
    {
        signals.Dispose();
        foreach (ChildProcess client in Clients)
        {
            await client.DisposeAsync();
        }

        await Server.DisposeAsync();
    }

    /// <summary>
    /// Adds the clients up: ops/s is the sum of each client's replies over the common window (bytes received from GO
    /// to STOP over its bytes per reply; without the kernel's byte counts, its calls over its own loop), per-op costs
    /// divide by every call from GO to the last reply, which the server's figures and decisions also cover.
    /// </summary>
    public static BenchCell Combine(string link, BenchCellSpec spec, IReadOnlyList<BenchCellMeasurement> clients, ProcessStats server, IReadOnlyList<DecisionCount>? decisions = null)
    {
        long calls = clients.Sum(c => c.Calls);
        double window = clients.Max(c => c.Seconds);
        LongHistogram latency = Histograms.Create();
        foreach (long[] bucket in clients.SelectMany(c => c.Latency))
        {
            latency.RecordValueWithCount(bucket[0], bucket[1]);
        }

        return new BenchCell(link, spec.Contender, spec.Class, spec.Size, clients.Count, calls, window,
            clients.Sum(RepliesPerSecond),
            clients.Sum(c => (double)c.ResponseBytes) / calls,
            clients.Sum(c => (double)c.RequestBytes) / calls,
            clients.Sum(c => c.Client.CpuMilliseconds) / calls,
            server.CpuMilliseconds / calls,
            clients.Sum(c => (double)c.Client.AllocatedBytes) / calls,
            (double)server.AllocatedBytes / calls,
            clients.Sum(c => c.Client.CpuMilliseconds) / 1000 / window,
            server.CpuMilliseconds / 1000 / window,
            Histograms.Summarize(latency),
            decisions);
    }

    /// <summary>One client's replies per second: over the common window where its bytes were counted, else over its own.</summary>
    private static double RepliesPerSecond(BenchCellMeasurement client) =>
        client is { Window: { Seconds: > 0, ResponseBytes: > 0 } window, ResponseBytes: > 0 }
            ? window.ResponseBytes * (double)client.Calls / client.ResponseBytes / window.Seconds
            : client.Calls / client.Seconds;

    private async Task<IReadOnlyList<DecisionCount>> ServerDecisionsAsync(string contender)
    {
        await Server.SendAsync("DECISIONS " + contender);
        return JsonSerializer.Deserialize<List<DecisionCount>>(await Server.ExpectAsync("DECISIONS", StartupTimeout))!;
    }

    private async Task<ProcessStats> ServerStatsAsync()
    {
        await Server.SendAsync("STATS");
        return JsonSerializer.Deserialize<ProcessStats>(await Server.ExpectAsync("STATS", StartupTimeout))!;
    }
}
