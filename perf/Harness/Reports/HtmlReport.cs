using System.Net;
using System.Reflection;
using System.Text;
using System.Text.Json;
using Surrogate.Perf.Harness.Measurement;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>
/// report.html: one self-contained page (chart.js inlined from the embedded npm bundle, so it renders offline) with
/// charts of time, bytes and CPU per case and scenario, the results table, the build floor and trace findings.
/// The page sets document.title to "rendered" once every chart canvas holds drawn pixels.
/// </summary>
public static class HtmlReport
{
    public static string Write(RunReport report)
    {
        var data = new
        {
            scenarios = report.Cells.Select(c => c.Scenario).Distinct().ToArray(),
            cases = report.Cells.Select(c => new { c.Case, c.CaseLabel }).Distinct().ToArray(),
            cells = report.Cells.Select(c => new
            {
                c.Case,
                c.Scenario,
                median = c.Latency.Median,
                p99 = c.Latency.P99,
                kb = (c.RequestBytes + c.ResponseBytes) / 1024,
                cpu = c.Client.CpuMilliseconds + c.Server.CpuMilliseconds,
                clientCpu = c.Client.CpuMilliseconds,
                serverCpu = c.Server.CpuMilliseconds,
                ratio = c.TimeRatio,
            }),
            floors = report.Floors.Select(f => new { f.Scenario, median = f.MedianMilliseconds }),
        };
        string json = JsonSerializer.Serialize(data).Replace("</", "<\\/", StringComparison.Ordinal);
        RunEnvironment env = report.Environment;

        var html = new StringBuilder();
        html.Append("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>DataSet transport comparison</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1240px}
            h1{font-size:22px}h2{font-size:18px;margin-top:28px}
            .charts{display:grid;grid-template-columns:1fr 1fr;gap:18px}
            .chart{border:1px solid #ddd;border-radius:6px;padding:8px;height:340px}
            table{border-collapse:collapse;font-size:12px;margin:8px 0}
            td,th{border:1px solid #ddd;padding:3px 6px;text-align:right}
            td:first-child,th:first-child,td.l{text-align:left}
            .env{font-size:13px;color:#444}code{font-size:11px}
            </style></head><body>
            """);
        html.Append("<h1>").Append(E(MarkdownReport.Title(env))).Append("</h1>");
        html.Append("<ul class=\"env\">")
            .Append(Li($"started {env.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC, profile {env.Profile}, command: {env.CommandLine}"))
            .Append(Li($"{env.Machine}, {env.OperatingSystem}, {env.ProcessorCount} cores, {env.Runtime}, GC {env.GcMode}"))
            .Append(Li("pinning: " + env.Pinning)).Append(Li("network: " + env.Network)).Append(Li("server: " + env.Server)).Append(Li("load: " + env.LoadModel))
            .Append(Li("bytes: " + env.BytesMethod)).Append(Li("costs: " + env.CostMethod))
            .Append("</ul>");
        html.Append("""
            <div class="charts">
            <div class="chart"><canvas id="time"></canvas></div>
            <div class="chart"><canvas id="bytes"></canvas></div>
            <div class="chart"><canvas id="cpu"></canvas></div>
            <div class="chart"><canvas id="ratio"></canvas></div>
            </div>
            """);
        html.Append("<h2>Results</h2>").Append(ResultsTable(report));
        html.Append("<h2>Build floor</h2><table><tr><th>scenario</th><th>rows</th><th>floor median ms</th><th>floor min ms</th><th>floor alloc KB</th></tr>");
        foreach (BuildFloor f in report.Floors)
        {
            html.Append($"<tr><td>{E(f.Scenario)}</td><td>{f.Rows}</td><td>{Ms(f.MedianMilliseconds)}</td><td>{Ms(f.MinMilliseconds)}</td><td>{Kb(f.AllocatedBytes)}</td></tr>");
        }

        html.Append("</table><h2>Columns</h2><ul class=\"env\">");
        foreach (var (column, meaning) in MarkdownReport.Legend)
        {
            html.Append(Li($"{column}: {meaning}"));
        }

        html.Append("</ul>");
        if (report.Traces.Count > 0)
        {
            html.Append("<h2>Traces (thread time, not CPU time)</h2>").Append(TracesHtml(report.Traces));
        }

        html.Append("<script>").Append(ChartBundle()).Append("</script>\n");
        html.Append("<script>const report = ").Append(json).Append(";\n").Append(Script).Append("</script></body></html>\n");
        return html.ToString();
    }

    private static string ResultsTable(RunReport report)
    {
        var t = new StringBuilder("<table><tr><th>case</th><th>scenario</th><th>rows</th><th>median ms</th><th>p99 ms</th><th>calls/s</th>" +
            "<th>req KB</th><th>resp KB</th><th>x time</th><th>x bytes</th><th>x cpu</th><th>client cpu ms</th><th>server cpu ms</th>" +
            "<th>client alloc KB</th><th>server alloc KB</th></tr>");
        foreach (CellResult c in report.Cells)
        {
            t.Append($"<tr><td>{E(c.CaseLabel)}</td><td class=\"l\">{E(c.Scenario)}</td><td>{c.Rows}</td><td>{Ms(c.Latency.Median)}</td>" +
                $"<td>{Ms(c.Latency.P99)}</td><td>{Num(c.CallsPerSecond)}</td><td>{Kb(c.RequestBytes)}</td><td>{Kb(c.ResponseBytes)}</td>" +
                $"<td>{Ratio(c.TimeRatio)}</td><td>{Ratio(c.BytesRatio)}</td><td>{Ratio(c.CpuRatio)}</td><td>{Ms(c.Client.CpuMilliseconds)}</td>" +
                $"<td>{Ms(c.Server.CpuMilliseconds)}</td><td>{Kb(c.Client.AllocatedBytes)}</td><td>{Kb(c.Server.AllocatedBytes)}</td></tr>");
        }

        return t.Append("</table>").ToString();
    }

    private static string TracesHtml(IReadOnlyList<TraceSummary> traces)
    {
        var t = new StringBuilder($"<p class=\"env\">{E(TraceTables.Explanation)}</p>");
        t.Append("<table><tr><th>process</th><th>case</th><th>scenario</th><th>samples</th><th>busy</th><th>DataSet XML all / busy</th>" +
            "<th>surrogate all / busy</th><th>top exclusive (busy only)</th></tr>");
        foreach (TraceSummary s in traces)
        {
            string top = string.Join("<br>", s.TopExclusive.Take(3).Select(f => $"{f.ExclusivePercent:0.0}% <code>{E(f.Frame.Length > 90 ? f.Frame[..90] + "…" : f.Frame)}</code>"));
            t.Append($"<tr><td>{s.Process}</td><td class=\"l\">{E(s.Case)}</td><td class=\"l\">{E(s.Scenario)}</td><td>{s.Samples}</td><td>{s.BusySamples}</td>" +
                $"<td>{Percent(s.DataSetXmlShare)} / {Percent(s.DataSetXmlBusyShare)}</td><td>{Percent(s.SurrogateShare)} / {Percent(s.SurrogateBusyShare)}</td>" +
                $"<td class=\"l\">{top}</td></tr>");
        }

        return t.Append("</table>").ToString();
    }

    private static string Li(string text) => "<li>" + E(text) + "</li>";

    private static string E(string text) => WebUtility.HtmlEncode(text);

    /// <summary>chart.js, embedded from the npm bundle at build time, for every report page.</summary>
    public static string ChartBundle()
    {
        using Stream stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("chart.umd.min.js")
            ?? throw new InvalidOperationException("chart.js is not embedded: build perf/Harness with npm available.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    private const string Script = """
        const palette = ['#1f77b4', '#2ca02c', '#ff7f0e', '#d62728', '#9467bd', '#8c564b'];
        const labels = report.scenarios;
        function series(field) {
          return report.cases.map((c, i) => ({
            label: c.CaseLabel,
            backgroundColor: palette[i % palette.length],
            data: labels.map(s => { const cell = report.cells.find(x => x.Case === c.Case && x.Scenario === s); return cell ? cell[field] : null; }),
          }));
        }
        function chart(id, title, datasets, yTitle, logarithmic) {
          return new Chart(document.getElementById(id), {
            type: 'bar',
            data: { labels, datasets },
            options: {
              animation: false, responsive: true, maintainAspectRatio: false,
              plugins: { title: { display: true, text: title }, legend: { position: 'bottom' } },
              scales: { y: { type: logarithmic ? 'logarithmic' : 'linear', title: { display: true, text: yTitle } } },
            },
          });
        }
        const floor = { type: 'line', label: 'build floor (DataSet from arrays)', borderColor: '#000', backgroundColor: '#000', showLine: false,
          pointStyle: 'line', pointRadius: 22, pointBorderWidth: 3,
          data: labels.map(s => { const f = report.floors.find(x => x.Scenario === s); return f ? f.median : null; }) };
        const charts = [
          chart('time', 'Median time per call (ms, log scale)', [...series('median'), floor], 'ms', true),
          chart('bytes', 'Bytes on the wire per call (KB, request + response, log scale)', series('kb'), 'KB', true),
          chart('cpu', 'CPU per call, client + server (ms, log scale)', series('cpu'), 'ms', true),
          chart('ratio', 'Median time relative to plain DataSet over NetTcp binary (x)', series('ratio'), 'x baseline', false),
        ];
        function drawn(canvas) {
          const ctx = canvas.getContext('2d');
          const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] !== 0) return true; }
          return false;
        }
        document.title = charts.every(c => drawn(c.canvas)) ? 'rendered' : 'not rendered';
        """;
}
