using System.Globalization;
using System.Net;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The compression benchmarks' server process (<c>compression-serve [--listen address] --contenders a,b</c>), on the
/// stand-in host (the harness) or CoreWCF (perf/CoreWcfServer): two endpoints per contender on one net.tcp port,
/// <c>/name/plain</c> (<see cref="IOrdersBench"/>) and <c>/name/surrogate</c> (<see cref="ISurrogateOrdersBench"/>),
/// announced as <c>name/plain</c> and <c>name/surrogate</c>; then <see cref="ServerControl"/>'s protocol, where
/// <c>PRELOAD orders:10,simple:0</c> builds the payloads of those classes and sizes and <c>DECISIONS name</c> answers a policy contender's
/// decisions (<see cref="BenchDecisionLogs"/>).
/// </summary>
public sealed record BenchServeArgs(IPAddress Address, IReadOnlyList<Contender> Contenders)
{
    public static readonly string[] Contracts = ["plain", "surrogate"];

    public static BenchServeArgs Parse(IReadOnlyList<string> args)
    {
        IPAddress address = IPAddress.Loopback;
        IReadOnlyList<Contender>? contenders = null;
        for (int i = 0; i + 1 < args.Count; i += 2)
        {
            switch (args[i])
            {
                case "--listen":
                    address = IPAddress.Parse(args[i + 1]);
                    break;
                case "--contenders":
                    contenders = [.. args[i + 1].Split(',', StringSplitOptions.RemoveEmptyEntries).Select(ContenderCatalog.Get)];
                    break;
                default:
                    throw new ArgumentException($"compression-serve takes --listen <address> and --contenders <names>, not '{args[i]}'.");
            }
        }

        return args.Count % 2 == 0 && contenders is { Count: > 0 }
            ? new BenchServeArgs(address, contenders)
            : throw new ArgumentException("compression-serve needs --contenders <names> (and optionally --listen <address>).");
    }

    /// <summary>The arguments the driver passes.</summary>
    public static string[] Format(IReadOnlyList<Contender> contenders, IPAddress? listen) =>
        [.. listen is null ? [] : new[] { "--listen", listen.ToString() }, "--contenders", string.Join(',', contenders.Select(c => c.Name))];

    /// <summary>Announces <paramref name="endpoints"/> and serves the control protocol until QUIT.</summary>
    public static Task<int> ServeAsync(IReadOnlyDictionary<string, string> endpoints) =>
        ServerControl.RunAsync(endpoints, BenchPayloads.Preload, decisions: BenchDecisionLogs.Answer);

    /// <summary><c>host</c> as it goes in a URI (IPv6 in brackets).</summary>
    public string UriHost => Address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? $"[{Address}]" : Address.ToString();
}
