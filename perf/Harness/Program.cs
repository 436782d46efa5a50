using Surrogate.Perf.Harness.Cli;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Measurement;
using Surrogate.Perf.Harness.Tracing;

namespace Surrogate.Perf.Harness;

/// <summary>
/// Entry point. With no verb (or <c>run</c>) it is the driver of the comparison; <c>serve</c> and <c>client</c>
/// are the two child processes it starts; <c>analyze</c> summarises captured traces.
/// </summary>
public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        if (args.Contains("--help") || args.Contains("-h"))
        {
            return Help(0);
        }

        string verb = args.Length > 0 && !args[0].StartsWith('-') ? args[0] : "run";
        string[] rest = verb == "run" && (args.Length == 0 || args[0] != "run") ? args : args[1..];
        try
        {
            return verb switch
            {
                "run" => await RunCommand.RunAsync(HarnessOptions.Parse(rest), "dotnet run -c Release --project perf/Harness -- " + string.Join(' ', args)),
                "serve" => await ServeCommand.RunAsync(rest),
                "client" => ClientCommand.Run(),
                "analyze" => AnalyzeCommand.Run(rest),
                "help" => Help(0),
                _ => Help(2),
            };
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine(e.Message);
            return Help(2);
        }
    }

    private static int Help(int code)
    {
        (code == 0 ? Console.Out : Console.Error).WriteLine(HarnessOptions.Usage);
        return code;
    }
}
