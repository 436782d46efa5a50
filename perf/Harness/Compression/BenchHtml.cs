using System.Net;
using System.Text;
using System.Text.Json;
using Surrogate.Perf.Harness.Reports;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// report.html of a compression run, built like the other reports (chart.js inlined, renders offline, document.title
/// set to "rendered" once every canvas has pixels): per link, grouped bars of ops/s by orders per reply with a bar
/// per contender (the 2011 posts' chart) and the DataSet payloads; bytes per reply; the sweep's ratio against speed.
/// results.md's tables below.
/// </summary>
public static class BenchHtml
{
    public static string Write(BenchReport report)
    {
        var charts = new List<object>();
        foreach (BenchLinkReport link in report.Links)
        {
            var cells = report.Cells.Where(c => c.Link == link.Name).ToList();
            string where = link.BitsPerSecond is null ? "loopback, one call in flight" : $"{link.Name}, {link.Clients} clients";
            AddBars(charts, $"2011 Orders: ops/s by orders per reply ({where}; log scale)", "ops/s",
                cells.Where(c => c.Class == MessageClassCatalog.Orders), c => $"{c.Size} orders", c => c.OpsPerSecond);
            AddBars(charts, $"Orders DataSet: ops/s ({where}; log scale)", "ops/s",
                cells.Where(c => c.Class != MessageClassCatalog.Orders), c => $"{c.Class} ({c.Size})", c => c.OpsPerSecond);
        }

        AddBars(charts, "Bytes per reply on the wire (KB, loopback; log scale)", "KB",
            report.Cells.Where(c => c.Link == BenchLink.LoopbackName), c => $"{c.Class} {c.Size}", c => c.ResponseBytes / 1024);
        int largest = report.Sweep.Where(p => p.Class == MessageClassCatalog.Orders).Select(p => p.Size).DefaultIfEmpty().Max();
        var sweep = report.Sweep.Where(p => p.Class == MessageClassCatalog.Orders && p.Size == largest).GroupBy(p => p.Codec)
            .Select(g => new { label = g.Key, points = g.Select(p => new { x = p.CompressMBps, y = p.Ratio, level = p.Level }) }).ToList();
        string json = JsonSerializer.Serialize(new { charts, sweep, sweepTitle = $"Codec sweep, {largest} orders: ratio (frame / message) against compress MB/s (log)" })
            .Replace("</", "<\\/", StringComparison.Ordinal);

        var html = new StringBuilder();
        html.Append("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Compression benchmarks</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1240px}
            h1{font-size:22px}h2{font-size:18px;margin-top:28px}
            .charts{display:grid;grid-template-columns:1fr 1fr;gap:18px}
            .chart{border:1px solid #ddd;border-radius:6px;padding:8px;height:360px}
            pre{font-size:11px;white-space:pre-wrap}
            </style></head><body>
            """);
        html.Append("<h1>").Append(E($"Compression benchmarks (the 2011 Orders, reproduced), profile {report.Environment.Profile}")).Append("</h1>");
        html.Append("<p>").Append(E($"server: {report.Environment.Server}; started {report.Environment.StartedUtc:yyyy-MM-dd HH:mm} UTC; " +
            $"{report.Environment.ProcessorCount} cores; {report.Environment.Pinning}")).Append("</p>");
        html.Append("<div class=\"charts\" id=\"charts\"></div>");
        html.Append("<h2>Tables (results.md)</h2><pre>").Append(E(BenchMarkdown.Write(report))).Append("</pre>");
        html.Append("<script>").Append(HtmlReport.ChartBundle()).Append("</script>\n");
        html.Append("<script>const report = ").Append(json).Append(";\n").Append(Script).Append("</script></body></html>\n");
        return html.ToString();
    }

    /// <summary>A grouped bar chart: one group per <paramref name="group"/> value, one bar per contender.</summary>
    private static void AddBars(List<object> charts, string title, string unit, IEnumerable<BenchCell> cells, Func<BenchCell, string> group, Func<BenchCell, double> value)
    {
        var list = cells.ToList();
        if (list.Count == 0)
        {
            return;
        }

        var labels = list.OrderBy(c => c.Class).ThenBy(c => c.Size).Select(group).Distinct().ToList();
        var datasets = list.Select(c => c.Contender).Distinct().Select(contender => new
        {
            label = contender,
            data = labels.Select(l => list.FirstOrDefault(c => c.Contender == contender && group(c) == l) is { } c ? value(c) : (double?)null),
        });
        charts.Add(new { title, unit, labels, datasets });
    }

    private static string E(string text) => WebUtility.HtmlEncode(text);

    private const string Script = """
        const palette = ['#7f7f7f', '#d62728', '#ff9896', '#1f77b4', '#aec7e8', '#17becf', '#9467bd', '#c5b0d5', '#2ca02c', '#98df8a', '#ff7f0e', '#8c564b', '#e377c2', '#bcbd22'];
        const container = document.getElementById('charts');
        const drawnCharts = [];
        function canvas() {
          const div = document.createElement('div'); div.className = 'chart';
          const c = document.createElement('canvas'); div.appendChild(c); container.appendChild(div);
          return c;
        }
        const options = (title, scales) => ({ animation: false, responsive: true, maintainAspectRatio: false,
          plugins: { title: { display: true, text: title }, legend: { position: 'bottom' } }, scales });
        for (const chart of report.charts) {
          drawnCharts.push(new Chart(canvas(), {
            type: 'bar',
            data: { labels: chart.labels, datasets: chart.datasets.map((d, i) => ({ label: d.label, data: d.data, backgroundColor: palette[i % palette.length] })) },
            options: options(chart.title, { y: { type: 'logarithmic', title: { display: true, text: chart.unit } } }),
          }));
        }
        if (report.sweep.length > 0) {
          drawnCharts.push(new Chart(canvas(), {
            type: 'scatter',
            data: { datasets: report.sweep.map((s, i) => ({ label: s.label, data: s.points, showLine: true,
              borderColor: palette[(i + 3) % palette.length], backgroundColor: palette[(i + 3) % palette.length] })) },
            options: options(report.sweepTitle, {
              x: { type: 'logarithmic', title: { display: true, text: 'compress MB/s' } },
              y: { title: { display: true, text: 'frame / message' } } }),
          }));
        }
        function drawn(c) {
          const pixels = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] !== 0) return true; }
          return false;
        }
        document.title = drawnCharts.length > 0 && drawnCharts.every(c => drawn(c.canvas)) ? 'rendered' : 'not rendered';
        """;
}
