using System.Globalization;
using System.Text.Json;

namespace Surrogate.Perf.Tests;

/// <summary>The run's CSV, JSON and Markdown parse and hold one sane row per case and scenario.</summary>
[Collection(HarnessRunCollection.Name)]
public sealed class ResultsFileTests
{
    private static readonly string[] DataSetCases = ["nettcp-binary", "nettcp-surrogate", "nettcp-binary-load", "nettcp-surrogate-load", "basichttp-text", "asmx-text"];
    private readonly HarnessRunFixture run;

    public ResultsFileTests(HarnessRunFixture run) => this.run = run;

    [Fact]
    public void Harness_exits_successfully()
    {
        Assert.True(run.ExitCode == 0, "harness failed:\n" + run.Output);
    }

    [Fact]
    public void Csv_has_a_row_per_case_and_scenario_with_positive_measurements()
    {
        string[] lines = File.ReadAllLines(run.PathOf("results.csv"));
        string[] header = lines[0].Split(',');
        Assert.Contains("median_ms", header);
        var rows = CsvRows.Read(run.PathOf("results.csv"));

        foreach (string scenario in run.Scenarios)
        {
            foreach (string caseName in DataSetCases)
            {
                var row = Assert.Single(rows, r => r["case"] == caseName && r["scenario"] == scenario);
                Assert.True(Number(row["median_ms"]) > 0, $"{caseName}/{scenario} median");
                Assert.True(Number(row["p99_ms"]) >= Number(row["median_ms"]), $"{caseName}/{scenario} p99 >= median");
                Assert.True(Number(row["calls"]) >= 5, $"{caseName}/{scenario} calls");
                Assert.True(Number(row["response_bytes"]) > Number(row["rows"]), $"{caseName}/{scenario} response bytes");
                Assert.True(Number(row["client_cpu_ms"]) > 0 && Number(row["server_cpu_ms"]) > 0, $"{caseName}/{scenario} cpu on both sides");
                Assert.True(Number(row["client_alloc_bytes"]) > 0 && Number(row["server_alloc_bytes"]) > 0, $"{caseName}/{scenario} allocations on both sides");
            }

            var baseline = rows.Single(r => r["case"] == "nettcp-binary" && r["scenario"] == scenario);
            Assert.Equal(1.0, Number(baseline["time_ratio"]), 6);
            Assert.Equal(1.0, Number(baseline["bytes_ratio"]), 6);
        }

        var objects = Assert.Single(rows, r => r["case"] == "objects");
        Assert.Equal(10_000, Number(objects["rows"]));
    }

    [Fact]
    public void Json_matches_the_csv_and_has_a_build_floor_per_scenario()
    {
        using var json = JsonDocument.Parse(File.ReadAllText(run.PathOf("results.json")));
        var root = json.RootElement;
        int csvRows = File.ReadAllLines(run.PathOf("results.csv")).Length - 1;
        Assert.Equal(csvRows, root.GetProperty("Cells").GetArrayLength());
        var floors = root.GetProperty("Floors").EnumerateArray().ToList();
        Assert.Equal(run.Scenarios.OrderBy(s => s), floors.Select(f => f.GetProperty("Scenario").GetString()!).OrderBy(s => s));
        Assert.All(floors, f => Assert.True(f.GetProperty("MedianMilliseconds").GetDouble() > 0));
        Assert.All(floors, f => Assert.True(f.GetProperty("AllocatedBytes").GetInt64() > 0, "a build allocates its tables and rows"));
        Assert.False(string.IsNullOrEmpty(root.GetProperty("Environment").GetProperty("Pinning").GetString()));
        Assert.False(string.IsNullOrEmpty(root.GetProperty("Environment").GetProperty("Server").GetString()));
    }

    [Fact]
    public void Markdown_has_the_results_table_and_the_column_legend()
    {
        string md = File.ReadAllText(run.PathOf("results.md"));
        Assert.Contains("| case | direction | scenario |", md);
        Assert.Contains("- server: **", md);
        Assert.Contains("## Build floor", md);
        Assert.Contains("| floor alloc KB |", md);
        Assert.Contains("| surrogate client alloc KB | surrogate server alloc KB | client alloc / floor alloc |", md);
        Assert.Contains("## Columns", md);
        Assert.Contains("[DataSetSurrogate], NetTcp binary", md);
    }

    private static double Number(string text) => double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
}
