using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Spectre.Console;
using Surrogate.Perf.Harness.Hosting;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Latency.Reports;
using Surrogate.Perf.Harness.Measurement;
using Surrogate.Perf.Harness.Reports;

namespace Surrogate.Perf.Harness.Latency.Soak;

/// <summary>
/// The soak (<c>latency --soak</c>): the server and one client process with the configured number of clients over
/// NetTcp, DataSet replies plain and [DataSetSurrogate], every reply checked; the driver samples the server's memory
/// and descriptors every few seconds. Exit code 1 when the verdict fails (errors, or memory or descriptors not flat).
/// </summary>
public static class SoakCommand
{
    public static async Task<int> RunAsync(LatencyConfig config, ServerChoice server, bool pin, LatencyEnvironment environment, string outDir)
    {
        SoakConfig soak = config.Soak;
        AnsiConsole.MarkupLine(string.Create(CultureInfo.InvariantCulture,
            $"soak: {soak.Clients} clients for {soak.Seconds:0.#} s over NetTcp, DataSet of {soak.Size} bytes, plain and [[DataSetSurrogate]], samples every {soak.SampleSeconds:0.#} s"));
        var samples = new List<MemorySample>();
        SoakClientResult clients;
        await using (ProcessGroup group = await ProcessGroup.StartAsync(server, Scope.SameMachine, pin, link: null))
        using (var board = new LiveBoard(["seconds", "calls", "errors", "retained heap MB", "working set MB", "open fds", "threads"], (int)Math.Ceiling(soak.Seconds / soak.SampleSeconds) + 1))
        {
            var clock = Stopwatch.StartNew();
            samples.Add(await SampleAsync(group, clock, board, 0, 0));
            long calls = 0, errors = 0;
            await group.Client.SendAsync("SOAK " + JsonSerializer.Serialize(new SoakSpec(group.Endpoints, soak.Clients, soak.Seconds, soak.Size), LatencyConfig.Json));
            using var stop = new CancellationTokenSource();
            Task sampling = Task.Run(async () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    try
                    {
                        await Task.Delay(TimeSpan.FromSeconds(soak.SampleSeconds), stop.Token);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }

                    MemorySample sample = await SampleAsync(group, clock, board, Interlocked.Read(ref calls), Interlocked.Read(ref errors));
                    lock (samples)
                    {
                        samples.Add(sample);
                    }
                }
            });
            string json = await group.Client.ExpectAsync("SRESULT", TimeSpan.FromSeconds(soak.Seconds) + ProcessGroup.CellTimeout, line =>
            {
                string[] parts = line.Split(' ');
                if (parts.Length == 4 && parts[0] == "SPROGRESS")
                {
                    Interlocked.Exchange(ref calls, long.Parse(parts[1], CultureInfo.InvariantCulture));
                    Interlocked.Exchange(ref errors, long.Parse(parts[2], CultureInfo.InvariantCulture));
                    board.Status($"{parts[3]}/{soak.Seconds:0} s: {parts[1]} calls, {parts[2]} errors");
                }
            });
            await stop.CancelAsync();
            await sampling;
            clients = JsonSerializer.Deserialize<SoakClientResult>(json, LatencyConfig.Json)!;
            samples.Add(await SampleAsync(group, clock, board, clients.PlainCalls + clients.SurrogateCalls, clients.Errors));
        }

        var verdict = SoakVerdict.Evaluate(samples, soak, clients.PlainCalls + clients.SurrogateCalls, clients.Errors);
        var report = new LatencyReport(environment, config, [], [], Overhead: null, new SoakReport(soak, clients, samples, verdict));
        LatencyReportWriters.WriteAll(report, outDir);
        AnsiConsole.MarkupLine(verdict.Passed
            ? $"[green]soak passed[/]: {clients.PlainCalls + clients.SurrogateCalls} calls, 0 errors, memory flat ({Markup.Escape(verdict.Criterion)})"
            : $"[red]soak failed[/]: {Markup.Escape(string.Join("; ", verdict.Failures))}");
        AnsiConsole.MarkupLine($"wrote soak.md, soak.json, soak-samples.csv to {Markup.Escape(outDir)}");
        return verdict.Passed ? 0 : 1;
    }

    private static async Task<MemorySample> SampleAsync(ProcessGroup group, Stopwatch clock, LiveBoard board, long calls, long errors)
    {
        MemorySample s = await group.ServerSampleAsync(clock.Elapsed.TotalSeconds);
        board.Row(
            s.Seconds.ToString("0.0", CultureInfo.InvariantCulture), calls.ToString(CultureInfo.InvariantCulture), errors.ToString(CultureInfo.InvariantCulture),
            (s.RetainedHeapBytes / 1048576.0).ToString("0.0", CultureInfo.InvariantCulture), (s.WorkingSetBytes / 1048576.0).ToString("0.0", CultureInfo.InvariantCulture),
            s.OpenFds.ToString(CultureInfo.InvariantCulture), s.Threads.ToString(CultureInfo.InvariantCulture));
        return s;
    }
}
