using System.Globalization;
using System.Text.Json;

namespace Surrogate.Perf.Tests;

/// <summary>The latency smoke run's files: a CSV row per planned cell, measured or listed with its reason, histograms, JSON, Markdown and a report that renders; the soak's verdict.</summary>
[Collection(LatencyRunCollection.Name)]
public sealed class LatencyResultsTests
{
    private readonly LatencyRunFixture run;

    public LatencyResultsTests(LatencyRunFixture run) => this.run = run;

    [Fact]
    public void Csv_lists_every_planned_cell_measured_or_with_the_reason_it_cannot_work()
    {
        Assert.True(run.ExitCode == 0, "latency run failed:\n" + run.Output);
        var rows = Rows(run.PathOf("results.csv"));
        var measured = rows.Where(r => r["status"] == "measured").ToList();
        Assert.True(measured.Count >= 20, $"{measured.Count} measured cells");
        Assert.DoesNotContain(rows, r => r["status"] == "failed");
        Assert.All(rows.Where(r => r["status"] == "cannot work"), r => Assert.False(string.IsNullOrWhiteSpace(r["reason"])));
        Assert.Contains(rows, r => r["status"] == "cannot work"); // the smoke preset plans some on either server
        foreach (var row in measured)
        {
            string cell = row["series"] + " " + row["size"];
            Assert.True(Number(row["p50_ms"]) > 0, cell + " p50");
            Assert.True(Number(row["p99_ms"]) >= Number(row["p50_ms"]) && Number(row["p999_ms"]) >= Number(row["p99_ms"]) && Number(row["max_ms"]) >= Number(row["p999_ms"]), cell + " percentiles in order");
            Assert.True(Number(row["calls"]) >= 5 && Number(row["calls_per_s"]) > 0, cell + " calls");
            Assert.True(Number(row["client_cpu_ms"]) > 0, cell + " client cpu");
            Assert.True(File.Exists(run.PathOf(row["histogram"])), cell + " .hgrm");
            if (row["scope"] is "SameMachine" or "Remote")
            {
                Assert.True(Number(row["server_cpu_ms"]) > 0 && Number(row["server_alloc_bytes"]) > 0, cell + " server costs");
            }
        }

        foreach (string series in new[] { "base", "scope=Direct", "scope=InProcess", "call=OneWay", "load=Open", "load=Throughput", "data=DataSet", "serializer=Surrogate, data=DataSet" })
        {
            Assert.Contains(measured, r => r["series"] == series);
        }
    }

    [Fact]
    public void Json_and_markdown_hold_the_same_cells_the_summary_and_the_overhead()
    {
        using var json = JsonDocument.Parse(File.ReadAllText(run.PathOf("results.json")));
        int measured = Rows(run.PathOf("results.csv")).Count(r => r["status"] == "measured");
        Assert.Equal(measured, json.RootElement.GetProperty("cells").GetArrayLength());
        Assert.False(string.IsNullOrEmpty(json.RootElement.GetProperty("environment").GetProperty("server").GetString()));
        Assert.True(json.RootElement.GetProperty("overhead").GetProperty("emptyLoop").GetProperty("count").GetInt64() > 0);
        string md = File.ReadAllText(run.PathOf("results.md"));
        foreach (string heading in new[] { "## Summary", "## DataSet: plain vs [DataSetSurrogate]", "## Harness overhead", "## Cells not run", "fastest binding" })
        {
            Assert.Contains(heading, md, StringComparison.Ordinal);
        }

        string hgrm = File.ReadAllText(Directory.GetFiles(run.PathOf("histograms"), "*.hgrm")[0]);
        Assert.Contains("Percentile", hgrm, StringComparison.Ordinal);
    }

    [Fact]
    public void Report_charts_draw_in_headless_chromium()
    {
        string dom = ReportRenderingTests.Chromium("--dump-dom", ReportRenderingTests.ToUri(run.PathOf("report.html")));
        Assert.Contains("<title>rendered</title>", dom, StringComparison.Ordinal);
    }

    [Fact]
    public void Soak_made_calls_without_errors_and_stayed_flat()
    {
        Assert.True(run.SoakExitCode == 0, "soak failed:\n" + run.SoakOutput);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(run.SoakFolder, "soak.json")));
        JsonElement soak = json.RootElement.GetProperty("soak");
        JsonElement clients = soak.GetProperty("clients");
        Assert.True(clients.GetProperty("plainCalls").GetInt64() > 0 && clients.GetProperty("surrogateCalls").GetInt64() > 0);
        Assert.Equal(0, clients.GetProperty("errors").GetInt64());
        Assert.True(soak.GetProperty("verdict").GetProperty("passed").GetBoolean());
        Assert.True(soak.GetProperty("samples").GetArrayLength() >= 3);
        Assert.Contains("passed", File.ReadAllText(Path.Combine(run.SoakFolder, "soak.md")), StringComparison.Ordinal);
    }

    private static List<Dictionary<string, string>> Rows(string path)
    {
        return CsvRows.Read(path);
    }

    private static double Number(string text) => double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
}
