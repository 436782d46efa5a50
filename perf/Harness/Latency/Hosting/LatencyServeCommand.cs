using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;

namespace Surrogate.Perf.Harness.Latency.Hosting;

/// <summary>
/// The latency server process (<c>latency-serve [--listen address]</c>), the same in the harness (stand-in host) and
/// the CoreWCF server's build: starts the host, announces its endpoints, then serves <see cref="ServerControl"/>'s protocol
/// (STATS, SAMPLE, OPEN for endpoints started on demand).
/// </summary>
public static class LatencyServeCommand
{
    public static async Task<int> RunAsync(IReadOnlyList<string> args, LatencyHostFactory factory)
    {
        await using ILatencyHost host = await factory(ServerControl.ListenAddress(args));
        return await ServerControl.RunAsync(host.Endpoints, _ => { }, host.OpenAsync);
    }
}
