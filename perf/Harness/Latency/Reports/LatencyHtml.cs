using System.Net;
using System.Text;
using System.Text.Json;
using Surrogate.Perf.Harness.Latency.Matrix;
using Surrogate.Perf.Harness.Reports;

namespace Surrogate.Perf.Harness.Latency.Reports;

/// <summary>
/// report.html of a latency run, built like the comparison's (chart.js inlined, renders offline, document.title set
/// to "rendered" once every canvas has pixels): p50 against size per varied dimension (log-log), the DataSet sweep,
/// and percentile spectra; results.md's tables below.
/// </summary>
public static class LatencyHtml
{
    public static string Write(LatencyReport report)
    {
        var groups = new List<object>();
        foreach (string dimension in new[] { "scope", "binding", "security", "instancing", "call", "serializer", "data", "transfer", "load" })
        {
            var series = report.Cells.Where(c => c.Series == "base" || (c.Series.StartsWith(dimension + "=", StringComparison.Ordinal) && !c.Series.Contains(',', StringComparison.Ordinal)))
                .GroupBy(c => c.Series).ToList();
            if (series.Count > 1)
            {
                groups.Add(new { title = $"p50 ms vs payload bytes, {dimension} varied (log-log)", series = series.Select(Line) });
            }
        }

        var dataSets = report.Cells.Where(c => c.Cell.Data == DataKind.DataSet).GroupBy(c => $"{c.Cell.Binding} {c.Cell.Scope} {(c.Cell.Serializer == SerializerKind.Surrogate ? "[DataSetSurrogate]" : c.Cell.Serializer.ToString())}").ToList();
        if (dataSets.Count > 0)
        {
            groups.Add(new { title = "DataSet: p50 ms vs nominal bytes, plain and [DataSetSurrogate] per binding (log-log)", series = dataSets.Select(Line) });
        }

        var spectra = report.Cells.Where(c => c.Series == "base").Select(c => new { label = "base " + LatencyCommand.Size(c.Cell.Size), points = c.Spectrum.Select(p => new { x = p.Percentile, y = p.Milliseconds }) })
            .Concat(report.Cells.Where(c => c.Series.StartsWith("load=", StringComparison.Ordinal)).Select(c => new { label = $"{c.Series} {LatencyCommand.Size(c.Cell.Size)}", points = c.Spectrum.Select(p => new { x = p.Percentile, y = p.Milliseconds }) }))
            .ToList();
        string json = JsonSerializer.Serialize(new { groups, spectra, levels = Client.Histograms.SpectrumLevels }).Replace("</", "<\\/", StringComparison.Ordinal);

        var html = new StringBuilder();
        html.Append("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Latency matrix</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1240px}
            h1{font-size:22px}h2{font-size:18px;margin-top:28px}
            .charts{display:grid;grid-template-columns:1fr 1fr;gap:18px}
            .chart{border:1px solid #ddd;border-radius:6px;padding:8px;height:340px}
            pre{font-size:11px;white-space:pre-wrap}
            </style></head><body>
            """);
        html.Append("<h1>").Append(E($"Latency matrix, preset {report.Environment.Preset}")).Append("</h1>");
        html.Append("<p>").Append(E($"server: {report.Environment.Server}; started {report.Environment.StartedUtc:yyyy-MM-dd HH:mm} UTC; {report.Environment.ProcessorCount} cores; {report.Environment.LoadModels}")).Append("</p>");
        html.Append("<div class=\"charts\" id=\"charts\"></div>");
        html.Append("<h2>Tables (results.md)</h2><pre>").Append(E(LatencyMarkdown.Write(report))).Append("</pre>");
        html.Append("<script>").Append(HtmlReport.ChartBundle()).Append("</script>\n");
        html.Append("<script>const report = ").Append(json).Append(";\n").Append(Script).Append("</script></body></html>\n");
        return html.ToString();
    }

    private static object Line(IGrouping<string, LatencyResult> series) => new
    {
        label = series.Key,
        points = series.OrderBy(c => c.Cell.Size).Select(c => new { x = c.Cell.Size, y = c.Latency.P50 }),
    };

    private static string E(string text) => WebUtility.HtmlEncode(text);

    private const string Script = """
        const palette = ['#1f77b4', '#2ca02c', '#ff7f0e', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
        const container = document.getElementById('charts');
        const charts = [];
        function add(title, datasets, xScale) {
          const div = document.createElement('div'); div.className = 'chart';
          const canvas = document.createElement('canvas'); div.appendChild(canvas); container.appendChild(div);
          charts.push(new Chart(canvas, {
            type: 'scatter',
            data: { datasets: datasets.map((s, i) => ({ label: s.label, data: s.points, showLine: true,
              borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length] })) },
            options: { animation: false, responsive: true, maintainAspectRatio: false,
              plugins: { title: { display: true, text: title }, legend: { position: 'bottom' } },
              scales: { x: xScale, y: { type: 'logarithmic', title: { display: true, text: 'ms' } } } },
          }));
        }
        for (const g of report.groups) {
          add(g.title, g.series, { type: 'logarithmic', title: { display: true, text: 'payload bytes' } });
        }
        if (report.spectra.length > 0) {
          // Percentiles spread as in HdrHistogram's plots: x = 1 / (1 - p), so the tail gets room.
          const spread = s => ({ label: s.label, points: s.points.filter(p => p.x < 100).map(p => ({ x: 100 / (100 - p.x), y: p.y })) });
          add('Percentile spectra (x: percentile, spread as 1/(1-p))', report.spectra.map(spread),
            { type: 'logarithmic', title: { display: true, text: 'percentile' },
              ticks: { callback: v => { const p = 100 - 100 / v; return [0, 50, 90, 99, 99.9, 99.99].some(q => Math.abs(q - p) < 1e-6) ? p + '%' : ''; } } });
        }
        function drawn(canvas) {
          const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] !== 0) return true; }
          return false;
        }
        document.title = charts.length > 0 && charts.every(c => drawn(c.canvas)) ? 'rendered' : 'not rendered';
        """;
}
