using Spectre.Console;
using Surrogate.Perf.Harness.Measurement;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>
/// The comparison's console with Spectre.Console: a header grid, the build floor table, then a <see cref="LiveBoard"/>
/// (progress bar, current cell, the latest rows) while cells run, and the full results table at the end.
/// </summary>
public sealed class ConsoleReporter : IDisposable
{
    private static readonly string[] Columns = ["case", "scenario", "median ms", "p99 ms", "calls/s", "wire KB", "x time", "x bytes", "cli cpu ms", "srv cpu ms", "cli KB alloc", "srv KB alloc"];
    private readonly string outDir;
    private readonly RunEnvironment environment;
    private readonly List<string[]> rows = [];
    private LiveBoard? board;

    public ConsoleReporter(string outDir, RunEnvironment environment)
    {
        this.outDir = outDir;
        this.environment = environment;
        LiveBoard.WidenWhenRedirected();
    }

    public void Header()
    {
        var grid = new Grid().AddColumn().AddColumn();
        grid.AddRow("[bold]DataSet transport comparison[/]", Markup.Escape($"{environment.Profile} profile, {environment.Runtime}, {environment.ProcessorCount} cores"));
        foreach (var (name, value) in new[] { ("pinning", environment.Pinning), ("network", environment.Network), ("server", environment.Server), ("load", environment.LoadModel), ("output", outDir) })
        {
            grid.AddRow(name, Markup.Escape(value));
        }

        AnsiConsole.Write(grid);
    }

    public void Floors(IReadOnlyList<BuildFloor> floors)
    {
        var table = new Table().Title("build floor (DataSet built from arrays in the client process; no transport can deliver it faster)")
            .AddColumn("scenario").AddColumn(new TableColumn("rows").RightAligned()).AddColumn(new TableColumn("median ms").RightAligned()).AddColumn(new TableColumn("min ms").RightAligned())
            .AddColumn(new TableColumn("KB alloc").RightAligned());
        foreach (BuildFloor floor in floors)
        {
            table.AddRow(floor.Scenario, floor.Rows.ToString(System.Globalization.CultureInfo.InvariantCulture), Ms(floor.MedianMilliseconds), Ms(floor.MinMilliseconds), Kb(floor.AllocatedBytes));
        }

        AnsiConsole.Write(table);
    }

    /// <summary>Starts the live board for <paramref name="cells"/> cells.</summary>
    public void TableHeader(int cells) => board = new LiveBoard(Columns, cells);

    public void Row(CellResult cell)
    {
        string[] row =
        [
            cell.Case, cell.Scenario, Ms(cell.Latency.Median), Ms(cell.Latency.P99), Num(cell.CallsPerSecond),
            Kb(cell.RequestBytes + cell.ResponseBytes), Ratio(cell.TimeRatio), Ratio(cell.BytesRatio),
            Ms(cell.Client.CpuMilliseconds), Ms(cell.Server.CpuMilliseconds), Kb(cell.Client.AllocatedBytes), Kb(cell.Server.AllocatedBytes),
        ];
        rows.Add(row);
        board?.Row(row);
    }

    /// <summary>A block of text between the table and the closing lines.</summary>
    public void Note(string text)
    {
        StopBoard();
        AnsiConsole.WriteLine();
        AnsiConsole.WriteLine(text);
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

    public void Status(string text) => board?.Status(text);

    public void Done(RunReport report)
    {
        StopBoard();
        var table = new Table().Title("results");
        foreach (string column in Columns)
        {
            table.AddColumn(new TableColumn(column).RightAligned());
        }

        table.Columns[0].LeftAligned();
        table.Columns[1].LeftAligned();
        foreach (CellResult cell in report.Cells)
        {
            table.AddRow(rows.FirstOrDefault(r => r[0] == cell.Case && r[1] == cell.Scenario) is { } r ? [.. r.Select(Markup.Escape)] : [cell.Case, cell.Scenario]);
        }

        AnsiConsole.Write(table);
        if (report.Traces.Count > 0)
        {
            AnsiConsole.WriteLine(TraceTables.Markdown(report.Traces, topFrames: 8));
        }

        AnsiConsole.WriteLine($"wrote results.md, results.csv, results.json, report.html to {outDir}");
    }

    public void Dispose() => StopBoard();

    private void StopBoard()
    {
        board?.Dispose();
        board = null;
    }
}
