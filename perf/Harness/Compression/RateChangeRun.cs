using System.Globalization;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Reports;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The rate-change part of a run: one veth pair shaped at the first rate, <see cref="BenchOptions.Clients"/> client
/// processes, and for each class, size and contender one window in which the driver changes both ends' tbf rate
/// <see cref="RateChange.AtSeconds"/> after GO; the first rate is put back before the next cell.
/// </summary>
public static class RateChangeRun
{
    public static async Task<BenchLinkReport> RunAsync(
        RateChange change, BenchOptions options, ServerChoice server, bool pin, LiveBoard board, List<RateChangeCell> cells, List<BenchNotRun> notRun)
    {
        IReadOnlyList<ClassSizes> classes = options.RateChangeClasses ?? options.Classes;
        var plan = (from c in classes from size in c.Sizes from contender in options.Contenders select (c.Class, size, contender)).ToList();
        string description = change.From.Describe();
        NetworkLink? network = null;
        BenchProcesses? processes = null;
        try
        {
            board.Status($"{change.Name}: creating the network namespace, veth pair and tbf qdiscs");
            network = NetworkLink.Create(change.From);
            description = string.Create(CultureInfo.InvariantCulture,
                $"{network.Describe()}; {change.AtSeconds:0.#} s into each {change.WindowSeconds:0.#} s window both ends change to {change.To.Describe()}, burst {change.To.BurstBytes} bytes");
            foreach (var (messageClass, size, contender) in plan)
            {
                if (contender.CannotWork(server.Name) is { } reason)
                {
                    notRun.Add(new BenchNotRun(change.Name, contender.Name, messageClass.Name, size, "cannot work", reason));
                    board.Skip();
                    continue;
                }

                try
                {
                    (processes, _) = await BenchProcesses.RunningOrStartAsync(processes, () =>
                    {
                        board.Status($"{change.Name}: starting the server and {options.Clients} client process(es)");
                        return BenchProcesses.StartAsync(server, options.Contenders, classes, options.Clients, pin, network);
                    });

                    network.ChangeRate(change.From);
                    string label = $"{change.Name} {contender.Name} {messageClass.Name} {messageClass.SizeLabel(size)}";
                    board.Status($"{label}: warming up at {change.From.Text}");
                    var spec = new BenchCellSpec(contender.Name, messageClass.Name, size, processes.Endpoints[BenchContract.Key(contender.Name, messageClass.Contract)],
                        options.Profile.WarmupSeconds, options.Profile.WarmupCalls, change.WindowSeconds, 1);
                    NetworkLink shaped = network;
                    RateChangeCell cell = await processes.MeasureRateChangeAsync(change.Name, spec, change, () => shaped.ChangeRate(change.To), (calls, seconds) =>
                        board.Status(string.Create(CultureInfo.InvariantCulture, $"{label}: {seconds:0.0}/{change.WindowSeconds:0.#} s, {calls} calls")));
                    cells.Add(cell);
                    board.Row(change.Name, contender.Name, messageClass.Name, messageClass.SizeLabel(size), Num(cell.Cell.OpsPerSecond), Kb(cell.Cell.ResponseBytes),
                        Ms(cell.Cell.ServerCpuMs), Ms(cell.Cell.ClientCpuMs), Percent(cell.Cell.ServerCpuShare), Percent(cell.Cell.ClientCpuShare));
                }
                catch (InvalidOperationException e)
                {
                    notRun.Add(new BenchNotRun(change.Name, contender.Name, messageClass.Name, size, "failed", e.Message.ReplaceLineEndings(" ")));
                    board.Skip();
                }
            }
        }
        catch (InvalidOperationException e)
        {
            // The link could not be set up: every cell of the rate change is listed as failed with the reason.
            foreach (var (messageClass, size, contender) in plan.Where(p => !cells.Any(c => c.Cell.Contender == p.contender.Name && c.Cell.Class == p.Class.Name && c.Cell.Size == p.size)
                && !notRun.Any(n => n.Link == change.Name && n.Contender == p.contender.Name && n.Class == p.Class.Name && n.Size == p.size)))
            {
                notRun.Add(new BenchNotRun(change.Name, contender.Name, messageClass.Name, size, "failed", e.Message.ReplaceLineEndings(" ")));
                board.Skip();
            }
        }
        finally
        {
            if (processes is not null)
            {
                await processes.DisposeAsync();
            }
        }

        string? statistics = network?.Statistics();
        network?.Dispose();
        return new BenchLinkReport(change.Name, change.From.BitsPerSecond, change.From.BurstBytes, options.Clients, description, statistics, DefaultLoad: false);
    }
}
