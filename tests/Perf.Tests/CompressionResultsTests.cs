using System.Text.Json;
using Surrogate.Perf.Harness.Compression;
using static Surrogate.Perf.Tests.CompressionRunFixture;

namespace Surrogate.Perf.Tests;

/// <summary>
/// The short version's files: a CSV row per planned cell (measured, or WCF's CompressionFormat listed as cannot-work
/// on the stand-in host), replies that shrink, a codec sweep that agrees with the kernel's byte counters, the model,
/// the Markdown sections and a report that renders.
/// </summary>
[Collection(CompressionRunCollection.Name)]
public sealed class CompressionResultsTests(CompressionRunFixture run)
{
    [Fact]
    public void Every_planned_cell_is_measured_or_listed_with_the_reason_it_cannot_work()
    {
        Assert.True(run.ExitCode == 0, "compression run failed:\n" + run.Output);
        var rows = run.Rows("results.csv");
        int planned = ContenderCatalog.QuickNames.Count * MessageClassCatalog.Quick.Sum(q => q.Sizes.Count);
        Assert.Equal(planned, rows.Count);
        Assert.DoesNotContain(rows, r => r["status"] == "failed");
        foreach (var row in rows.Where(r => r["status"] == "cannot work"))
        {
            Assert.StartsWith("format-", row["contender"], StringComparison.Ordinal);
            Assert.Contains("CoreWCF", row["reason"], StringComparison.Ordinal);
        }

        foreach (var row in rows.Where(r => r["status"] == "measured"))
        {
            string cell = $"{row["contender"]} {row["class"]} {row["size"]}";
            Assert.True(Number(row["ops_per_s"]) > 0 && Number(row["calls"]) >= 3, cell + " calls");
            Assert.True(Number(row["response_bytes"]) > 500 && Number(row["request_bytes"]) > 20, cell + " bytes");
            Assert.True(Number(row["server_cpu_ms"]) > 0 && Number(row["client_cpu_ms"]) > 0, cell + " cpu on both sides");
            Assert.True(Number(row["p50_ms"]) > 0 && Number(row["p99_ms"]) >= Number(row["p50_ms"]), cell + " latency");
            Assert.Equal("1", row["clients"]);
        }

        Assert.Equal(MessageClassCatalog.Quick.Sum(q => q.Sizes.Count), rows.Count(r => r["status"] == "measured" && r["contender"] == ContenderCatalog.UncompressedName));
    }

    [Fact]
    public void Fresh_processes_run_every_contender_uncounted_before_the_first_round_once_in_the_short_version()
    {
        using var json = JsonDocument.Parse(File.ReadAllText(run.PathOf("results.json")));
        var measured = run.Rows("results.csv").Where(r => r["status"] == "measured").ToList();
        (string firstClass, IReadOnlyList<int> sizes) = MessageClassCatalog.Quick[0];
        JsonElement link = Assert.Single(json.RootElement.GetProperty("links").EnumerateArray());
        var warmUp = link.GetProperty("warmUp").EnumerateArray().ToList();
        Assert.Equal(measured.Select(r => r["contender"]).Distinct().Order(), warmUp.Select(w => w.GetProperty("contender").GetString()!).Order());
        Assert.All(warmUp, w =>
        {
            Assert.Equal((firstClass, sizes[0]), (w.GetProperty("class").GetString()!, w.GetProperty("size").GetInt32()));
            Assert.True(w.GetProperty("opsPerSecond").GetDouble() > 0, w.GetProperty("contender").GetString());
        });

        // Not counted: each measured cell is its one round as it is (a cell of several rounds lists them).
        Assert.All(json.RootElement.GetProperty("cells").EnumerateArray(), c => Assert.Equal(JsonValueKind.Null, c.GetProperty("roundOpsPerSecond").ValueKind));
        Assert.Contains($"Warm-up rounds on the fresh server and clients ({firstClass} {BenchReport.SizeLabel(firstClass, sizes[0])}, not counted), ops/s in run order: ",
            File.ReadAllText(run.PathOf("results.md")), StringComparison.Ordinal);
    }

    [Fact]
    public void Compressing_contenders_send_smaller_replies()
    {
        var measured = run.Rows("results.csv").Where(r => r["status"] == "measured").ToList();
        foreach (var row in measured.Where(r => r["contender"] != ContenderCatalog.UncompressedName && !ContenderCatalog.Get(r["contender"]).IsPolicy))
        {
            var plain = measured.Single(r => r["contender"] == ContenderCatalog.UncompressedName && r["class"] == row["class"] && r["size"] == row["size"]);
            double ratio = Number(row["response_bytes"]) / Number(plain["response_bytes"]);
            Assert.True(ratio < (row["size"] == "1000" && row["class"] == MessageClassCatalog.Orders ? 0.4 : 0.8),
                $"{row["contender"]} {row["class"]} {row["size"]}: {ratio:0.000} of the uncompressed reply");
        }
    }

    [Fact]
    public void Policy_cells_carry_the_servers_decisions_for_every_reply_of_the_window()
    {
        using var json = JsonDocument.Parse(File.ReadAllText(run.PathOf("results.json")));
        var policyCells = json.RootElement.GetProperty("cells").EnumerateArray()
            .Where(c => ContenderCatalog.Get(c.GetProperty("contender").GetString()!).IsPolicy).ToList();
        Assert.NotEmpty(policyCells);
        foreach (JsonElement cell in policyCells)
        {
            string what = $"{cell.GetProperty("contender").GetString()} {cell.GetProperty("class").GetString()} {cell.GetProperty("size").GetInt32()}";
            var decisions = cell.GetProperty("decisions").EnumerateArray().ToList();
            Assert.NotEmpty(decisions);
            long logged = decisions.Sum(d => d.GetProperty("count").GetInt64());
            Assert.True(logged == cell.GetProperty("calls").GetInt64(), $"{what}: {logged} decisions for {cell.GetProperty("calls").GetInt64()} replies");
            Assert.All(decisions, d => Assert.True(d.GetProperty("meanRatio").GetDouble() is > 0 and < 1.1, what + " ratio"));
        }

        var policies = json.RootElement.GetProperty("policies").EnumerateArray().ToList();
        Assert.Equal(policyCells.Count, policies.Count);
        Assert.All(policies, p => Assert.Equal(p.GetProperty("met").GetBoolean(), p.GetProperty("why").ValueKind == JsonValueKind.Null));

        Assert.All(run.Rows("results.csv").Where(r => r["status"] == "measured"), r =>
            Assert.Equal(ContenderCatalog.Get(r["contender"]).IsPolicy, r["decisions"].Length > 0));
    }

    [Fact]
    public void Sweep_sizes_agree_with_the_bytes_on_the_wire()
    {
        var sweep = run.Rows("sweep.csv");
        var measured = run.Rows("results.csv").Where(r => r["status"] == "measured").ToList();
        Assert.NotEmpty(sweep);
        foreach (var point in sweep)
        {
            string what = $"{point["codec"]} {point["level"]} {point["class"]} {point["size"]}";
            Assert.True(Number(point["ratio"]) is > 0 and < 1, what + " ratio");
            Assert.True(Number(point["compress_mb_per_s"]) > 0 && Number(point["decompress_mb_per_s"]) > 0, what + " speed");
            var plain = measured.Single(r => r["contender"] == ContenderCatalog.UncompressedName && r["class"] == point["class"] && r["size"] == point["size"]);
            double framing = Number(plain["response_bytes"]) - Number(point["message_bytes"]);
            Assert.True(framing is >= 0 and <= 64, $"{what}: the captured reply is {framing} bytes off the uncompressed wire bytes");

            string contender = $"{point["codec"]}-{point["level"]}".ToLowerInvariant();
            if (measured.SingleOrDefault(r => r["contender"] == contender && r["class"] == point["class"] && r["size"] == point["size"]) is { } compressed)
            {
                double expected = Number(point["frame_bytes"]) + framing;
                double wire = Number(compressed["response_bytes"]);
                Assert.True(Math.Abs(wire - expected) <= 0.02 * expected, $"{what}: {wire} bytes on the wire, the sweep's frame gives {expected}");
            }
        }
    }

    [Fact]
    public void Model_gives_break_even_speeds_for_every_compressing_contender()
    {
        var rows = run.Rows("breakeven.csv");
        int compressing = ContenderCatalog.QuickNames.Count(n => ContenderCatalog.Get(n).ModelCodec is not null);
        Assert.Equal(compressing * MessageClassCatalog.Quick.Sum(q => q.Sizes.Count), rows.Count);
        foreach (var row in rows)
        {
            string what = $"{row["contender"]} {row["class"]} {row["size"]}";
            Assert.True(Number(row["throughput_break_even_bits"]) > 1e5, what + " throughput break-even");
            Assert.True(Number(row["latency_break_even_bits"]) > 1e5, what + " latency break-even");
            Assert.True(Number(row["loopback_predicted_ops"]) > 0, what + " loopback prediction");
            Assert.True(Number(row["compressed_response_bytes"]) < Number(row["response_bytes"]), what + " sizes");
        }

        using var json = JsonDocument.Parse(File.ReadAllText(run.PathOf("results.json")));
        Assert.Equal(rows.Count, json.RootElement.GetProperty("model").GetProperty("rows").GetArrayLength());
        Assert.False(string.IsNullOrEmpty(json.RootElement.GetProperty("environment").GetProperty("server").GetString()));
        Assert.Equal("loopback", json.RootElement.GetProperty("links")[0].GetProperty("name").GetString());
    }

    [Fact]
    public void Markdown_has_the_published_figures_the_sweep_the_model_and_the_conclusions()
    {
        string md = File.ReadAllText(run.PathOf("results.md"));
        foreach (string part in new[]
        {
            "## Part 3: one machine (loopback)", "published 2011 ops/s", "1383 (1.00)", "## Codec sweep", "## Model and break-even link speeds",
            "## The 2011 conclusions, checked", "## Decisions of the policies", "not measured (1gbit was not in this run)", "## Columns",
        })
        {
            Assert.Contains(part, md, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Report_charts_draw_in_headless_chromium()
    {
        string dom = ReportRenderingTests.Chromium("--dump-dom", ReportRenderingTests.ToUri(run.PathOf("report.html")));
        Assert.Contains("<title>rendered</title>", dom, StringComparison.Ordinal);
        Assert.Equal(4, dom.Split("<canvas").Length - 1); // orders, DataSet, bytes, sweep
    }
}
