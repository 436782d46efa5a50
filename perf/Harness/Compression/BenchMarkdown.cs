using System.Globalization;
using System.Text;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>results.md of a compression run: Part 3 beside the published figures, the DataSet payloads, Part 4 per link, the sweep, the model and the 2011 conclusions checked.</summary>
public static class BenchMarkdown
{
    public static string Write(BenchReport report)
    {
        var md = new StringBuilder();
        BenchEnvironment env = report.Environment;
        md.AppendLine($"# Compression benchmarks (the 2011 Orders, reproduced), profile {env.Profile}").AppendLine();
        foreach (string line in EnvironmentLines(report))
        {
            md.AppendLine("- " + line);
        }

        GridMarkdown.LeftOut(md, report);
        GridMarkdown.ClassRatios(md, report);

        foreach (BenchLinkReport link in report.Links)
        {
            md.AppendLine().AppendLine(link.BitsPerSecond is null
                ? $"## Part 3: one machine (loopback), {(link.Clients == 1 ? "one client" : link.Clients + " clients")}, one call in flight each"
                : $"## Part 4: {link.Name}, {link.Clients} clients").AppendLine();
            md.AppendLine($"Link: {link.Description}.").AppendLine();
            if (link.WarmUp.Count > 0)
            {
                BenchWarmUp first = link.WarmUp[0];
                md.AppendLine($"Warm-up rounds on the fresh server and clients ({first.Class} {BenchReport.SizeLabel(first.Class, first.Size)}, not counted), ops/s in run order: " +
                    string.Join(", ", link.WarmUp.Select(w => $"{w.Contender} {Num(w.OpsPerSecond)}")) + ".").AppendLine();
            }

            OpsTable(md, report, link.Name, MessageClassCatalog.Orders);
            CostTable(md, report, link.Name);
        }

        GridMarkdown.Verdicts(md, report);
        Decisions(md, report);
        GridMarkdown.RateChange(md, report);
        Sweep(md, report);
        Model(md, report);
        md.AppendLine().AppendLine("## The 2011 conclusions, checked").AppendLine();
        foreach (string line in Conclusions.Check(report))
        {
            md.AppendLine("- " + line);
        }

        if (report.NotRun.Count > 0)
        {
            md.AppendLine().AppendLine("## Cells not run").AppendLine().AppendLine("| link | contender | class | n | status | reason |").AppendLine("|---|---|---|--:|---|---|");
            foreach (BenchNotRun n in report.NotRun)
            {
                md.AppendLine($"| {n.Link} | {n.Contender} | {n.Class} | {n.Size} | {n.Status} | {n.Reason} |");
            }
        }

        foreach (BenchLinkReport link in report.Links.Where(l => l.QdiscStatistics is not null))
        {
            md.AppendLine().AppendLine($"## tc -s qdisc after {link.Name} (sent, dropped, overlimits)").AppendLine().AppendLine("```").AppendLine(link.QdiscStatistics).AppendLine("```");
        }

        md.AppendLine().AppendLine("## Columns").AppendLine();
        foreach (var (column, meaning) in Legend)
        {
            md.AppendLine($"- **{column}**: {meaning}");
        }

        return md.ToString();
    }

    public static readonly IReadOnlyList<(string Column, string Meaning)> Legend =
    [
        ("ops/s", "replies per second over one window common to the clients (one on loopback): every client calls until each has its minimum, and its received bytes over its bytes per reply count a reply still arriving in part; (x) is the ratio to uncompressed in the same run and link"),
        ("published", "Metzger 2011's ops/s for the same n (uncompressed, GZip and Deflate encoders; parts 3 and 4), and its ratio to their uncompressed"),
        ("resp KB", "bytes per reply on the wire (TCP payload: net.tcp framing and frame header included, Ethernet/IP/TCP headers not), from the kernel's counters of the clients' sockets"),
        ("srv / cli cpu ms", "process CPU (all threads) per reply: the server's, and the clients' added up"),
        ("srv / cli cpu %", "that CPU over the measured window, in % of one core: the server has core 0, every client shares core 1 (100% = saturated)"),
        ("ratio, MB/s (sweep)", "frame bytes / message bytes; message bytes per second through the encoder's buffered path (codec, XXH3 checksum, frame), median of repeated runs on one captured reply"),
        ("B* throughput", "the link speed below which the contender beats uncompressed when the server saturates (several clients): s0 × min(1/t_srv, 1/t_cli) of the compressed contender"),
        ("decisions", "for adaptive and rules-2011, the server's decision log over the measured window: raw or codec-level, the policy's reason, its share of replies and (×) wire bytes / message bytes"),
        ("B* latency", "the link speed below which compressing makes one call faster: (s0 − s_L) / (compress + decompress time)"),
    ];

    private static IEnumerable<string> EnvironmentLines(BenchReport report)
    {
        BenchEnvironment env = report.Environment;
        yield return $"started {env.StartedUtc:yyyy-MM-dd HH:mm} UTC; command: `{env.CommandLine}`";
        yield return $"{env.Machine}, {env.OperatingSystem}, {env.ProcessorCount} cores, {env.Runtime}";
        yield return "server: " + env.Server + "; client: the WCF client (System.ServiceModel) in the harness";
        yield return "pinning: " + env.Pinning;
        yield return "load: " + env.LoadModel;
        yield return "bytes: " + env.BytesMethod;
        yield return "costs: " + env.CostMethod;
        if (report.Cells.Where(c => c.StolenShare is not null).ToList() is { Count: > 0 } known)
        {
            yield return string.Create(CultureInfo.InvariantCulture,
                $"stolen time (a hypervisor's, of the machine's CPU time in each window): a round over {CellAttempts.MaxStolenShare:0%} measured again, up to {CellAttempts.MostAttempts} attempts; " +
                $"the median rounds of {known.Count(c => c.Attempts > 1)} of {known.Count} cells took more than one, and the most stolen median round lost {known.Max(c => c.StolenShare!.Value):0.0%} of its window");
        }

        yield return "payloads: n of the 1,000 Orders generated once (seed 2011) and served from memory; the Orders DataSet of perf/Scenarios with n orders (1–8 lines each), plain and [DataSetSurrogate]";
    }

    private static void OpsTable(StringBuilder md, BenchReport report, string link, string messageClass)
    {
        var sizes = report.Cells.Where(c => c.Link == link && c.Class == messageClass).Select(c => c.Size).Distinct().Order().ToList();
        var others = report.Cells.Where(c => c.Link == link && c.Class != messageClass).Select(c => (c.Class, c.Size)).Distinct().ToList();
        bool published = sizes.Any(s => PublishedFigures.Get(link, ContenderCatalog.UncompressedName, s) is not null);
        md.Append("| contender | ").AppendJoin(" | ", sizes.Select(s => $"{s} orders ops/s")).Append(others.Count > 0 ? " | " : string.Empty)
            .AppendJoin(" | ", others.Select(o => $"{o.Class} ({BenchReport.SizeLabel(o.Class, o.Size)}) ops/s")).AppendLine(published ? " | published 2011 ops/s (x) |" : " |");
        md.Append("|---|").Append(string.Concat(Enumerable.Repeat("--:|", sizes.Count + others.Count))).AppendLine(published ? "--:|" : string.Empty);
        foreach (string contender in Contenders(report, link))
        {
            var row = sizes.Select(s => OpsWithRatio(report, link, contender, messageClass, s)).Concat(others.Select(o => OpsWithRatio(report, link, contender, o.Class, o.Size)));
            md.Append($"| {contender} | ").AppendJoin(" | ", row);
            if (published)
            {
                md.Append(" | ").AppendJoin(" / ", sizes.Select(s => PublishedFigures.Get(link, contender, s) is { } p
                    ? $"{Num(p)} ({Ratio(p / PublishedFigures.Get(link, ContenderCatalog.UncompressedName, s)!.Value)})"
                    : "-"));
            }

            md.AppendLine(" |");
        }

        md.AppendLine();
    }

    private static void CostTable(StringBuilder md, BenchReport report, string link)
    {
        md.AppendLine("| contender | class | n | resp KB | req KB | srv cpu ms | cli cpu ms | srv cpu % | cli cpu % | p50 ms | p99 ms | calls |");
        md.AppendLine("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        foreach (BenchCell c in report.Cells.Where(c => c.Link == link).OrderBy(c => c.Class).ThenBy(c => c.Size))
        {
            md.AppendLine($"| {c.Contender} | {c.Class} | {BenchReport.SizeLabel(c.Class, c.Size)} | {Kb(c.ResponseBytes)} | {Kb(c.RequestBytes)} | {Ms(c.ServerCpuMs)} | {Ms(c.ClientCpuMs)} | " +
                $"{Percent(c.ServerCpuShare)} | {Percent(c.ClientCpuShare)} | {Ms(c.Latency.P50)} | {Ms(c.Latency.P99)} | {c.Calls} |");
        }
    }

    /// <summary>The policy contenders per cell against the best static contender and uncompressed, their decisions, and every miss with why.</summary>
    private static void Decisions(StringBuilder md, BenchReport report)
    {
        if (report.Policies.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Decisions of the policies, against the best static contender").AppendLine()
            .AppendLine($"Goal (the adaptive encoder's): at least {PolicyVerdicts.OracleGoal:0.00} × the oracle (the best static contender of the cell; with rounds, its figure held out from its choice) and {PolicyVerdicts.UncompressedGoal:0.00} × uncompressed. " +
                "Decisions are the server's decision log over the measured window (with rounds, the median round's).").AppendLine()
            .AppendLine("| link | contender | class | n | ops/s | oracle | × oracle | × uncompressed | goal | decisions: choice, reason, share (wire/message) |")
            .AppendLine("|---|---|---|--:|--:|---|--:|--:|---|---|");
        foreach (PolicyVerdict v in report.Policies)
        {
            BenchCell cell = report.Find(v.Link, v.Contender, v.Class, v.Size)!;
            md.AppendLine($"| {v.Link} | {v.Contender} | {v.Class} | {BenchReport.SizeLabel(v.Class, v.Size)} | {Num(v.OpsPerSecond)} | {v.Oracle} {Num(v.OracleOpsPerSecond)} | {Ratio(v.VersusOracle)} | " +
                $"{Ratio(v.VersusUncompressed)} | {(v.Met ? "met" : "missed")} | {BenchDecisionLogs.Describe(cell.Decisions)} |");
        }

        var misses = report.Policies.Where(v => !v.Met).ToList();
        md.AppendLine().AppendLine(misses.Count == 0 ? "No cell missed." : "Misses:").AppendLine();
        foreach (PolicyVerdict v in misses)
        {
            md.AppendLine($"- {v.Link} {v.Contender} {v.Class} {BenchReport.SizeLabel(v.Class, v.Size)}: {Ratio(v.VersusOracle)} × {v.Oracle}, {Ratio(v.VersusUncompressed)} × uncompressed; {v.Why}.");
        }
    }

    private static void Sweep(StringBuilder md, BenchReport report)
    {
        if (report.Sweep.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Codec sweep").AppendLine();
        md.AppendLine("Each codec and level on one captured reply (the bytes net.tcp's binary session encoder wrote, steady state), through the encoder's own buffered path; every size is in sweep.csv.").AppendLine();
        foreach (var group in report.Sweep.GroupBy(p => (p.Class, p.Size)).Where(g => g.Key.Size == report.Sweep.Where(p => p.Class == g.Key.Class).Max(p => p.Size)))
        {
            md.AppendLine($"{group.Key.Class}, {BenchReport.SizeLabel(group.Key.Class, group.Key.Size)}{(MessageClassCatalog.GridNames.Contains(group.Key.Class) ? string.Empty : " orders")}: {group.First().MessageBytes:N0} message bytes").AppendLine();
            md.AppendLine("| codec | level | frame bytes | ratio | compress MB/s | decompress MB/s | compress ms | decompress ms |").AppendLine("|---|--:|--:|--:|--:|--:|--:|--:|");
            foreach (SweepPoint p in group)
            {
                md.AppendLine($"| {p.Codec} | {p.Level} | {p.FrameBytes:N0} | {p.Ratio:0.000} | {Num(p.CompressMBps)} | {Num(p.DecompressMBps)} | {Ms(p.CompressMs)} | {Ms(p.DecompressMs)} |");
            }

            md.AppendLine();
        }
    }

    private static void Model(StringBuilder md, BenchReport report)
    {
        md.AppendLine().AppendLine("## Model and break-even link speeds").AppendLine();
        if (report.Model is not { } model)
        {
            md.AppendLine($"Not fitted: {report.ModelMissing}.");
            return;
        }

        md.AppendLine("ops/s = min(1 / t_srv, 1 / t_cli, B × 1448/1514 / 8 / s): the server's core, the clients' core and the link each cap it; t_srv and t_cli are the loopback " +
            "run's uncompressed CPU per reply plus the sweep's compress and decompress time, s the uncompressed reply's wire bytes less the message plus its compressed frame. " +
            "One call in flight on loopback adds the codec's time to the uncompressed call's.").AppendLine();
        var links = model.Rows.SelectMany(r => r.Links.Select(l => l.Link)).Distinct().ToList();
        md.Append("| contender | class | n | s0 / s KB | t_srv + compress ms | t_cli + decompress ms | B* throughput | B* latency | loopback ops/s model / measured | ")
            .AppendJoin(" | ", links.Select(l => $"{l} ops/s model / measured (uncompressed)")).AppendLine(" | model agrees |");
        md.Append("|---|---|--:|--:|--:|--:|--:|--:|--:|").Append(string.Concat(links.Select(_ => "--:|"))).AppendLine("---|");
        foreach (ModelRow r in model.Rows)
        {
            ModelInputs i = r.Inputs;
            md.Append($"| {r.Contender} | {r.Class} | {r.Size} | {Kb(i.ResponseBytes)} / {Kb(i.CompressedResponseBytes)} | {Ms(i.ServerSeconds * 1000)} + {Ms(i.CompressSeconds * 1000)} | " +
                $"{Ms(i.ClientSeconds * 1000)} + {Ms(i.DecompressSeconds * 1000)} | {Bits(r.ThroughputBreakEvenBits)} | {Bits(r.LatencyBreakEvenBits)} | " +
                $"{Opt(r.LoopbackPredictedOps)} / {Opt(r.LoopbackMeasuredOps)} | ");
            md.AppendJoin(" | ", r.Links.Select(l => $"{Num(l.PredictedOps)} / {Opt(l.MeasuredOps)} ({Num(l.PredictedUncompressedOps)} / {Opt(l.MeasuredUncompressedOps)})"));
            md.AppendLine($" | {Agreement(r)} |");
        }
    }

    /// <summary>How many measured links the model's verdict (win or lose against uncompressed) matched.</summary>
    public static string Agreement(ModelRow row)
    {
        var measured = row.Links.Where(l => l.MeasuredWin is not null).ToList();
        return measured.Count == 0 ? "not measured" : $"{measured.Count(l => l.MeasuredWin == l.PredictedWin)}/{measured.Count}";
    }

    /// <summary>A link speed: "∞" when compressing never loses, "never" when it saves nothing.</summary>
    public static string Bits(double bits) => bits switch
    {
        double.PositiveInfinity => "∞",
        <= 0 => "never",
        >= 1e9 => string.Create(CultureInfo.InvariantCulture, $"{bits / 1e9:0.00} Gbit/s"),
        >= 1e6 => string.Create(CultureInfo.InvariantCulture, $"{bits / 1e6:0.#} Mbit/s"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bits / 1e3:0} kbit/s"),
    };

    internal static IEnumerable<string> Contenders(BenchReport report, string link) =>
        report.Cells.Where(c => c.Link == link).Select(c => c.Contender).Distinct();

    private static string OpsWithRatio(BenchReport report, string link, string contender, string messageClass, int size)
    {
        BenchCell? cell = report.Find(link, contender, messageClass, size);
        BenchCell? baseline = report.Find(link, ContenderCatalog.UncompressedName, messageClass, size);
        return cell is null ? "-" : baseline is null ? Num(cell.OpsPerSecond) : $"{Num(cell.OpsPerSecond)} ({Ratio(cell.OpsPerSecond / baseline.OpsPerSecond)})";
    }

    private static string Opt(double? value) => value is { } v ? Num(v) : "-";
}
