using System.Globalization;
using System.Text.Json;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Latency;

/// <summary>
/// The processes one scope runs in: Direct and SameMachine, a server (core 0) and a client (core 1); InProcess, one
/// unpinned client that hosts the service itself; Remote, the server inside the link's network namespace. The client
/// is the chosen server's build (<c>latency-client</c>: the harness for the stand-in host, the CoreWCF server's
/// executable for CoreWCF, which also has the net.uds client); both run the same client code.
/// </summary>
public sealed class ProcessGroup : IAsyncDisposable
{
    public static readonly TimeSpan StartupTimeout = TimeSpan.FromMinutes(3);
    public static readonly TimeSpan CellTimeout = TimeSpan.FromMinutes(10);

    private readonly Dictionary<string, string> endpoints;
    private readonly TerminationSignals signals;

    private ProcessGroup(ChildProcess client, ChildProcess? server, Dictionary<string, string> endpoints)
    {
        Client = client;
        Server = server;
        this.endpoints = endpoints;
        signals = TerminationSignals.Register(() =>
        {
            client.Kill();
            server?.Kill();
        });
    }

    public ChildProcess Client { get; }

    /// <summary>The separate server process, or null (Direct needs none; InProcess hosts the service in the client).</summary>
    public ChildProcess? Server { get; }

    public bool Broken => Client.HasExited || Server?.HasExited == true;

    public IReadOnlyDictionary<string, string> Endpoints => endpoints;

    public static async Task<ProcessGroup> StartAsync(ServerChoice choice, Scope scope, bool pin, NetworkLink? link)
    {
        ChildProcess? server = null;
        var endpoints = new Dictionary<string, string>();
        if (scope is Scope.SameMachine or Scope.Remote)
        {
            string[] listen = link is null ? [] : ["--listen", link.ServerAddress.ToString()];
            server = choice.StartVerb("server", pin ? 0 : null, link?.ExecPrefix ?? [], "latency-serve", listen);
            endpoints = JsonSerializer.Deserialize<Dictionary<string, string>>(await server.ExpectAsync("LISTENING", StartupTimeout))!;
        }

        ChildProcess client = scope == Scope.InProcess
            ? choice.StartVerb("client", null, [], "latency-client", "--inprocess")
            : choice.StartVerb("client", pin ? 1 : null, [], "latency-client");
        await client.ExpectAsync("LCLIENT-READY", StartupTimeout);
        return new ProcessGroup(client, server, endpoints);
    }

    /// <summary>The endpoints a cell's spec carries (null: the client's in-process host); asks the server for one it starts on demand.</summary>
    public async Task<IReadOnlyDictionary<string, string>?> EndpointsForAsync(LatencyCell cell)
    {
        if (Server is null)
        {
            return cell.Scope == Scope.Direct ? new Dictionary<string, string>() : null;
        }

        string key = EndpointKeys.For(cell);
        if (!endpoints.ContainsKey(key))
        {
            await Server.SendAsync("OPEN " + key);
            string opened = await Server.ExpectAsync("OPENED", StartupTimeout);
            if (opened.Length > 0)
            {
                endpoints[key] = opened;
            }
        }

        return endpoints;
    }

    public async Task<ProcessStats?> ServerStatsAsync()
    {
        if (Server is null)
        {
            return null;
        }

        await Server.SendAsync("STATS");
        return JsonSerializer.Deserialize<ProcessStats>(await Server.ExpectAsync("STATS", StartupTimeout));
    }

    public async Task<MemorySample> ServerSampleAsync(double seconds)
    {
        await Server!.SendAsync("SAMPLE");
        var sample = JsonSerializer.Deserialize<MemorySample>(await Server.ExpectAsync("SAMPLE", StartupTimeout))!;
        return sample with { Seconds = Math.Round(seconds, 1) };
    }

    public async ValueTask DisposeAsync()
    {
        signals.Dispose();
        await Client.DisposeAsync();
        if (Server is not null)
        {
            await Server.DisposeAsync();
        }
    }

    /// <summary>The client process's progress line as "calls, seconds".</summary>
    public static (long Calls, double Seconds)? Progress(string line)
    {
        string[] parts = line.Split(' ');
        return parts.Length == 3 && parts[0] == "LPROGRESS"
            && long.TryParse(parts[1], NumberStyles.Integer, CultureInfo.InvariantCulture, out long calls)
            && double.TryParse(parts[2], NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds)
            ? (calls, seconds)
            : null;
    }
}
