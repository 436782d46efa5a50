using System.Text.Json;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>Endpoint keys the server announces and clients look up.</summary>
public static class ServerEndpoints
{
    public const string NetTcpPlain = "nettcp-plain";
    public const string NetTcpSurrogate = "nettcp-surrogate";
    public const string BasicHttpPlain = "basichttp-plain";
    public const string Asmx = "asmx";
}

/// <summary>
/// The server process's side of the driver's protocol, the same for the stand-in host (<c>Harness serve</c>) and the
/// CoreWCF server (perf/CoreWcfServer): <c>LISTENING {json}</c> once listening, then control lines on stdin:
/// <c>PRELOAD a,b</c> builds scenarios, <c>STATS</c> prints the process's own counters, <c>QUIT</c> (or end of input)
/// stops it.
/// </summary>
public static class ServerControl
{
    /// <summary>The address to listen on: <c>--listen address</c> (for <c>--link</c>), else 127.0.0.1.</summary>
    public static System.Net.IPAddress ListenAddress(IReadOnlyList<string> args) =>
        args is ["--listen", string listen] ? System.Net.IPAddress.Parse(listen)
            : args.Count == 0 ? System.Net.IPAddress.Loopback
            : throw new ArgumentException("The server takes only --listen <address>.");

    /// <summary>
    /// Announces <paramref name="endpoints"/> and serves the protocol; <paramref name="preload"/> builds one scenario;
    /// <paramref name="open"/> (the latency servers) starts an endpoint announced lazily: <c>OPEN key</c> answers
    /// <c>OPENED address</c>, or <c>OPENED</c> alone when the server has no such endpoint. <c>SAMPLE</c> answers the
    /// process's retained heap, working set and open descriptors (the soak). <paramref name="decisions"/> (the compression
    /// servers) answers <c>DECISIONS name</c> with <c>DECISIONS {json}</c>.
    /// </summary>
    public static async Task<int> RunAsync(
        IReadOnlyDictionary<string, string> endpoints, Action<string> preload, Func<string, Task<string?>>? open = null, Func<string, string>? decisions = null)
    {
        Reply("LISTENING " + JsonSerializer.Serialize(endpoints));
        while (await ControlLines.ReadLineOffPoolAsync() is { } line)
        {
            string[] parts = line.Split(' ', 2, StringSplitOptions.TrimEntries);
            switch (parts[0])
            {
                case "PRELOAD":
                    foreach (string scenario in parts[1].Split(',', StringSplitOptions.RemoveEmptyEntries))
                    {
                        preload(scenario);
                    }

                    Reply("PRELOADED");
                    break;
                case "STATS":
                    Reply("STATS " + JsonSerializer.Serialize(ProcessStats.Capture()));
                    break;
                case "SAMPLE":
                    Reply("SAMPLE " + JsonSerializer.Serialize(MemorySample.Capture()));
                    break;
                case "OPEN" when open is not null:
                    Reply("OPENED " + (await open(parts[1]) ?? string.Empty));
                    break;
                case "DECISIONS" when decisions is not null:
                    Reply("DECISIONS " + decisions(parts[1]));
                    break;
                case "QUIT":
                    return 0;
                default:
                    Reply("ERROR unknown command " + parts[0]);
                    break;
            }
        }

        return 0;
    }

    private static void Reply(string line) => ControlLines.Reply(line);
}
