using System.Text.Json;
using Surrogate.Perf.Harness.Measurement;
using Surrogate.Perf.Harness.Reports;

namespace Surrogate.Perf.Harness.Tracing;

/// <summary>
/// <c>Harness analyze &lt;folder|file.nettrace&gt;</c>: summarises traces named <c>case.scenario.process.nettrace</c>,
/// writes missing speedscope files, prints the tables and, for a run folder, puts them into its reports.
/// </summary>
public static class AnalyzeCommand
{
    public static int Run(IReadOnlyList<string> args)
    {
        if (args.Count == 0)
        {
            Console.Error.WriteLine("analyze needs a run folder or a .nettrace file." + " Usage: Harness analyze <folder|file.nettrace> [--top N]");
            return 2;
        }

        int top = 15;
        int topAt = args.ToList().IndexOf("--top");
        if (topAt >= 0 && (topAt + 1 >= args.Count || !int.TryParse(args[topAt + 1], out top)))
        {
            Console.Error.WriteLine("--top needs a number.");
            return 2;
        }

        string target = Path.GetFullPath(args[0]);
        bool folder = Directory.Exists(target);
        if (!folder && !File.Exists(target))
        {
            Console.Error.WriteLine($"'{args[0]}' is neither a folder nor a file.");
            return 2;
        }

        string outDir = folder ? target : Path.GetDirectoryName(target)!;
        string[] files = folder
            ? Directory.GetFiles(target, "*.nettrace", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToArray()
            : [target];
        if (files.Length == 0)
        {
            Console.Error.WriteLine($"No .nettrace files under {target} (run with --trace to capture them).");
            return 1;
        }

        var summaries = new List<TraceSummary>();
        foreach (string file in files)
        {
            var (caseName, scenario, process) = Describe(file);
            Console.Error.WriteLine($"analyzing {Path.GetFileName(file)}");
            bool speedscope = !File.Exists(Path.ChangeExtension(file, ".speedscope.json"));
            summaries.Add(TraceAnalyzer.Analyze(file, process, caseName, scenario, outDir, speedscope, top));
        }

        Console.WriteLine(TraceTables.Markdown(summaries, top));
        string results = Path.Combine(outDir, "results.json");
        if (folder && File.Exists(results))
        {
            var report = JsonSerializer.Deserialize<RunReport>(File.ReadAllText(results))! with { Traces = summaries };
            ReportWriters.WriteAll(report, outDir);
            Console.WriteLine($"updated results.md, results.json and report.html in {outDir}");
        }

        return 0;
    }

    /// <summary>Reads case, scenario and process from <c>case.scenario.process.nettrace</c>; other names keep the file name.</summary>
    private static (string Case, string Scenario, string Process) Describe(string file)
    {
        string[] parts = Path.GetFileNameWithoutExtension(file).Split('.');
        return parts.Length == 3 ? (parts[0], parts[1], parts[2]) : (Path.GetFileNameWithoutExtension(file), "-", "-");
    }
}
