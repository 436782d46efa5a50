using Spectre.Console;
using Spectre.Console.Rendering;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>
/// The console while a run goes, for every command: on a terminal a live Spectre.Console display (a progress bar with
/// the current step, and a table of the latest finished rows); redirected (CI, tests), one plain line per finished row.
/// Rows and status may come from any thread.
/// </summary>
public sealed class LiveBoard : IDisposable
{
    private const int VisibleRows = 18;
    private readonly object gate = new();
    private readonly string[] columns;
    private readonly List<string[]> rows = [];
    private int total;
    private readonly bool live = AnsiConsole.Profile.Capabilities.Interactive && !Console.IsOutputRedirected;
    private readonly CancellationTokenSource stop = new();
    private readonly System.Diagnostics.Stopwatch clock = System.Diagnostics.Stopwatch.StartNew();
    private readonly Task? display;
    private string status = "starting";
    private int done;

    public LiveBoard(string[] columns, int total)
    {
        this.columns = columns;
        this.total = total;
        if (live)
        {
            display = AnsiConsole.Live(Render()).AutoClear(false).Overflow(VerticalOverflow.Ellipsis).StartAsync(async ctx =>
            {
                while (!stop.IsCancellationRequested)
                {
                    ctx.UpdateTarget(Render());
                    try
                    {
                        await Task.Delay(200, stop.Token);
                    }
                    catch (OperationCanceledException)
                    {
                        break;
                    }
                }

                ctx.UpdateTarget(Render());
            });
        }
        else
        {
            AnsiConsole.WriteLine(string.Join(" | ", columns));
        }
    }

    /// <summary>Redirected output (CI logs, tests) gets long lines instead of Spectre's 80-column wrapping.</summary>
    public static void WidenWhenRedirected()
    {
        if (Console.IsOutputRedirected)
        {
            AnsiConsole.Profile.Width = 240;
        }
    }

    /// <summary>What is happening now (shown under the bar on a terminal only).</summary>
    public void Status(string text)
    {
        lock (gate)
        {
            status = text;
        }
    }

    /// <summary>A finished row; it advances the bar.</summary>
    public void Row(params string[] cells)
    {
        lock (gate)
        {
            rows.Add(cells);
            done++;
        }

        if (!live)
        {
            AnsiConsole.WriteLine(string.Join(" | ", cells));
        }
    }

    /// <summary>Steps that produced no row (a cell that could not run, in each of its rounds); they advance the bar.</summary>
    public void Skip(int steps = 1)
    {
        lock (gate)
        {
            done += steps;
        }
    }

    /// <summary>Steps the run added to its plan (warm-up passes until the processes settle).</summary>
    public void Extend(int steps)
    {
        lock (gate)
        {
            total += steps;
        }
    }

    public void Dispose()
    {
        stop.Cancel();
        display?.GetAwaiter().GetResult();
        stop.Dispose();
    }

    private IRenderable Render()
    {
        lock (gate)
        {
            var table = new Table().Border(TableBorder.Simple).Expand();
            foreach (string column in columns)
            {
                table.AddColumn(new TableColumn(Markup.Escape(column)).RightAligned());
            }

            table.Columns[0].LeftAligned();
            foreach (string[] row in rows.Skip(Math.Max(0, rows.Count - VisibleRows)))
            {
                table.AddRow(row.Select(c => new Text(c)).ToArray<IRenderable>());
            }

            int width = 40, filled = total == 0 ? width : (int)Math.Round(width * (double)done / total);
            string bar = $"[green]{new string('━', filled)}[/][grey]{new string('━', width - filled)}[/]";
            var line = new Markup($"{bar} {done}/{total}  {clock.Elapsed:hh\\:mm\\:ss}  {Markup.Escape(status)}");
            return new Spectre.Console.Rows(table, line);
        }
    }
}
