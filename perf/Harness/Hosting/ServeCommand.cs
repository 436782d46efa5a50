using System.Net;
using System.Text.Json;
using Surrogate.AsmxCompare;
using Surrogate.Perf.Harness.Measurement;
using Surrogate.StandInHost;

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
/// The server process (<c>Harness serve [--listen address]</c>): hosts every endpoint on 127.0.0.1 (or on the given
/// local address, for <c>--link</c>), prints <c>LISTENING {json}</c>, then answers control lines on stdin:
/// <c>PRELOAD a,b</c> builds scenarios, <c>STATS</c> prints the process's own counters, <c>QUIT</c> (or end of input)
/// stops it.
/// </summary>
public static class ServeCommand
{
    public static async Task<int> RunAsync(IReadOnlyList<string> args)
    {
        IPAddress address = args is ["--listen", string listen] ? IPAddress.Parse(listen)
            : args.Count == 0 ? IPAddress.Loopback
            : throw new ArgumentException("serve takes only --listen <address>.");
        var cache = new ScenarioCache();
        var service = new ComparisonService(cache);
        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.ListenAddress = address;
            b.AddService<IComparisonService>(service)
                .AddService<ISurrogateComparisonService>(service)
                .AddNetTcpEndpoint<IComparisonService>("/plain", ComparisonBindings.NetTcp())
                .AddNetTcpEndpoint<ISurrogateComparisonService>("/surrogate", ComparisonBindings.NetTcp())
                .AddHttpEndpoint<IComparisonService>("/plain/text", ComparisonBindings.BasicHttp());
        });
        await using var asmx = await AsmxHost.StartAsync(address);

        var endpoints = new Dictionary<string, string>
        {
            [ServerEndpoints.NetTcpPlain] = host.GetEndpointAddress("/plain").ToString(),
            [ServerEndpoints.NetTcpSurrogate] = host.GetEndpointAddress("/surrogate").ToString(),
            [ServerEndpoints.BasicHttpPlain] = host.GetEndpointAddress("/plain/text").ToString(),
            [ServerEndpoints.Asmx] = asmx.Address.ToString(),
        };
        Console.Out.WriteLine("LISTENING " + JsonSerializer.Serialize(endpoints));
        Console.Out.Flush();

        while (await Console.In.ReadLineAsync() is { } line)
        {
            string[] parts = line.Split(' ', 2, StringSplitOptions.TrimEntries);
            switch (parts[0])
            {
                case "PRELOAD":
                    foreach (string scenario in parts[1].Split(',', StringSplitOptions.RemoveEmptyEntries))
                    {
                        cache.DataSet(scenario);
                        asmx.Preload(scenario);
                    }

                    cache.Objects(ComparisonCases.ObjectCount);
                    Reply("PRELOADED");
                    break;
                case "STATS":
                    Reply("STATS " + JsonSerializer.Serialize(ProcessStats.Capture()));
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

    private static void Reply(string line)
    {
        Console.Out.WriteLine(line);
        Console.Out.Flush();
    }
}
