using System.Text;
using Surrogate.Perf.Harness.Measurement;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>The console while a run goes: a header, a live progress line, one table row per finished cell.</summary>
public sealed class ConsoleReporter
{
    private static readonly CompositeFormat RowFormat =
        CompositeFormat.Parse("{0,-17} {1,-13} {2,9} {3,9} {4,8} {5,9} {6,7} {7,7} {8,10} {9,10} {10,12} {11,12}");
    private readonly string outDir;
    private readonly RunEnvironment environment;
    private readonly bool live = !Console.IsOutputRedirected;
    private int statusWidth;

    public ConsoleReporter(string outDir, RunEnvironment environment)
    {
        this.outDir = outDir;
        this.environment = environment;
    }

    public void Header()
    {
        Console.WriteLine($"DataSet transport comparison, {environment.Profile} profile, {environment.Runtime}, {environment.ProcessorCount} cores");
        Console.WriteLine($"pinning: {environment.Pinning}");
        Console.WriteLine($"network: {environment.Network}");
        Console.WriteLine($"server: {environment.Server}");
        Console.WriteLine($"load: {environment.LoadModel}");
        Console.WriteLine($"output: {outDir}");
    }

    public void Floors(IReadOnlyList<BuildFloor> floors)
    {
        ClearStatus();
        Console.WriteLine();
        Console.WriteLine("build floor (DataSet built from arrays in the client process; no transport can deliver it faster):");
        foreach (BuildFloor floor in floors)
        {
            Console.WriteLine($"  {floor.Scenario,-13} {floor.Rows,7} rows  median {Ms(floor.MedianMilliseconds)} ms  min {Ms(floor.MinMilliseconds)} ms");
        }
    }

    public void TableHeader()
    {
        Console.WriteLine();
        Console.WriteLine(string.Format(System.Globalization.CultureInfo.InvariantCulture, RowFormat,
            "case", "scenario", "median ms", "p99 ms", "calls/s", "wire KB", "x time", "x bytes", "cli cpu ms", "srv cpu ms", "cli KB alloc", "srv KB alloc"));
    }

    public void Row(CellResult cell)
    {
        ClearStatus();
        Console.WriteLine(string.Format(System.Globalization.CultureInfo.InvariantCulture, RowFormat,
            cell.Case, cell.Scenario, Ms(cell.Latency.Median), Ms(cell.Latency.P99), Num(cell.CallsPerSecond),
            Kb(cell.RequestBytes + cell.ResponseBytes), Ratio(cell.TimeRatio), Ratio(cell.BytesRatio),
            Ms(cell.Client.CpuMilliseconds), Ms(cell.Server.CpuMilliseconds), Kb(cell.Client.AllocatedBytes), Kb(cell.Server.AllocatedBytes)));
    }

    /// <summary>A block of text between the table and the closing lines.</summary>
    public void Note(string text)
    {
        ClearStatus();
        Console.WriteLine();
        Console.WriteLine(text);
    }

    /// <summary>A PROGRESS line from the client: "calls seconds".</summary>
    public void Progress(string label, string line, double measureSeconds)
    {
        string[] parts = line.Split(' ');
        if (parts.Length == 3 && parts[0] == "PROGRESS")
        {
            Status($"{label}: measuring {parts[2]}/{measureSeconds:0.#} s, {parts[1]} calls");
        }
    }

    public void Status(string text)
    {
        if (!live)
        {
            return;
        }

        string padded = text.Length < statusWidth ? text.PadRight(statusWidth) : text;
        statusWidth = text.Length;
        Console.Write("\r" + padded);
    }

    public void Done(RunReport report)
    {
        ClearStatus();
        Console.WriteLine();
        if (report.Traces.Count > 0)
        {
            Console.WriteLine(TraceTables.Markdown(report.Traces, topFrames: 8));
        }

        Console.WriteLine($"wrote results.md, results.csv, results.json, report.html to {outDir}");
    }

    private void ClearStatus()
    {
        if (live && statusWidth > 0)
        {
            Console.Write("\r" + new string(' ', statusWidth) + "\r");
            statusWidth = 0;
        }
    }
}
