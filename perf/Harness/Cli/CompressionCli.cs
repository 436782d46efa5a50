using System.CommandLine;
using Surrogate.Perf.Harness.Compression;

namespace Surrogate.Perf.Harness.Cli;

/// <summary>
/// <c>compression</c>: the 2011 Orders compression benchmarks reproduced (Metzger, parts 3 and 4) on loopback and on
/// shaped links, with the codec sweep, the model and the break-even link speeds.
/// </summary>
public static class CompressionCli
{
    private static readonly Option<bool> Quick = new("--quick") { Description = "the short version (CI): loopback, five contenders (adaptive among them), 10 and 1,000 orders and the surrogate DataSet, 1 s cells" };
    private static readonly Option<string?> Out = new("--out") { Description = "output folder (default perf/out/<yyyyMMdd-HHmmss>)" };
    private static readonly Option<string?> Server = new("--server") { Description = "soaphost or corewcf (default: corewcf when built, else soaphost; WCF's CompressionFormat runs on corewcf only)" };
    private static readonly Option<bool> NoPin = new("--no-pin") { Description = "do not pin the server to core 0 and the clients to core 1" };
    private static readonly Option<string?> Links = new("--links")
    {
        Description = "loopback and/or tc rates, e.g. loopback,1gbit,100mbit,1.5mbit (the default); a rate puts the server behind a veth pair shaped with tbf both ways (root, iproute2)",
    };

    private static readonly Option<string?> Contenders = new("--contenders")
    {
        Description = "subset of: " + string.Join(", ", ContenderCatalog.Defaults.Select(c => c.Name)) + ", or any codec-level (zstd-9); uncompressed is always added",
    };

    private static readonly Option<string?> Classes = new("--classes") { Description = "subset of: " + string.Join(", ", MessageClassCatalog.All.Select(c => c.Name)) };
    private static readonly Option<string?> Sizes = new("--sizes") { Description = "sizes for every class: orders for orders and DataSets (default 10,100,1000; DataSets 1000), bytes or mix for simple, medium, complex (default 1024,16384,153600,1048576,mix)" };
    private static readonly Option<int?> Clients = new("--clients") { Description = "concurrent client processes on a shaped link (default 4; loopback always has one call in flight)" };
    private static readonly Option<long?> Burst = new("--burst") { Description = "tbf burst in bytes (default: 0.5 ms of the rate, 3,028 B to 64 KiB)" };
    private static readonly Option<string?> Duration = new("--duration") { Description = "measured seconds per cell (full: 20, quick: 1)" };
    private static readonly Option<string?> Warmup = new("--warmup") { Description = "warm-up seconds per cell (full: 10, quick: 0.3, grid: 2)" };
    private static readonly Option<string?> Profile = new("--profile")
    {
        Description = "full (default), quick (as --quick), or grid: issue 11's grid (simple/medium/complex messages 1 KB-1 MB and the mix, orders, DataSets; 4 links at 1 and --clients clients; 9 contenders; the rate change; 3 interleaved rounds per cell), about 6 h as root (2.5 h with --rounds 1)",
    };

    private static readonly Option<string?> Loads = new("--loads") { Description = "client processes every link runs at, e.g. 1,4 (default: loopback 1, a shaped link --clients; grid: 1 and --clients)" };
    private static readonly Option<string?> RateChange = new("--rate-change")
    {
        Description = "from->to@seconds, e.g. 100mbit->1.5mbit@10s: after the links, each cell runs on a link shaped at 'from' whose tbf rate changes to 'to' that far into a window 10 s longer, and the report gives each policy's recovery time (root)",
    };

    private static readonly Option<int?> Rounds = new("--rounds") { Description = "times every contender of a class and size is measured, interleaved; a cell is its median round (full and quick: 1, grid: 3)" };

    public static Command Create()
    {
        var command = new Command("compression", "the 2011 Orders compression benchmarks: contenders x message sizes on loopback and shaped links, codec sweep, model, break-even link speeds");
        foreach (Option option in new Option[] { Quick, Profile, Out, Server, NoPin, Links, Contenders, Classes, Sizes, Clients, Loads, Burst, Duration, Warmup, Rounds, RateChange })
        {
            command.Options.Add(option);
        }

        command.SetAction((result, _) => CompressionCommand.RunAsync(Options(result)));
        return command;
    }

    /// <summary>Parses <c>compression</c>'s arguments (tests); throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static BenchOptions Parse(IReadOnlyList<string> args) => Options(HarnessCli.ParseOrThrow(Create(), args));

    public static BenchOptions Options(ParseResult r) => BenchOptions.From(
        r.GetValue(Quick), r.GetValue(Out), r.GetValue(Server), r.GetValue(NoPin), r.GetValue(Links), r.GetValue(Contenders), r.GetValue(Classes),
        r.GetValue(Sizes), r.GetValue(Clients), r.GetValue(Burst), r.GetValue(Duration), r.GetValue(Warmup), HarnessCli.Describe(r),
        r.GetValue(Profile), r.GetValue(Loads), r.GetValue(RateChange), r.GetValue(Rounds));
}
