using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace Surrogate.Perf.Tests;

/// <summary>
/// <c>--link</c>: as root, a run over a shaped 20 Mbit/s veth link obeys physics (no call is faster than its bytes
/// at that rate) and the smaller payload wins; otherwise the harness refuses with exit code 2 and names root.
/// </summary>
[Collection(LinkRunCollection.Name)]
public sealed class LinkRunTests : IDisposable
{
    private const double BitsPerSecond = 20e6;
    private readonly string folder = Path.Combine(Path.GetTempPath(), "perf-tests-link-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public void Shaped_link_run_is_bounded_by_the_rate_and_the_surrogate_wins_or_the_harness_refuses_without_root()
    {
        var (exitCode, output) = HarnessRunFixture.RunHarness(
            "--link", "20mbit", "--quick", "--scenarios", "rows-10000", "--cases", "nettcp-binary,nettcp-surrogate",
            "--duration", "2", "--warmup", "0.5", "--out", folder);
        if (!Environment.IsPrivilegedProcess)
        {
            Assert.True(exitCode == 2, "expected a refusal without root:\n" + output);
            Assert.Contains("root", output, StringComparison.Ordinal);
            return;
        }

        Assert.True(exitCode == 0, "harness failed:\n" + output);
        using var results = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "results.json")));
        JsonElement link = results.RootElement.GetProperty("Environment").GetProperty("Link");
        Assert.Equal(20_000_000, link.GetProperty("BitsPerSecond").GetInt64());
        Assert.Equal("tbf on veth between network namespaces", link.GetProperty("Method").GetString());
        Assert.Contains("20mbit", File.ReadAllText(Path.Combine(folder, "results.md")), StringComparison.Ordinal);

        var medians = new Dictionary<string, double>();
        foreach (JsonElement cell in results.RootElement.GetProperty("Cells").EnumerateArray())
        {
            string name = cell.GetProperty("Case").GetString()!;
            double seconds = cell.GetProperty("Latency").GetProperty("Median").GetDouble() / 1000;
            double bytes = cell.GetProperty("RequestBytes").GetDouble() + cell.GetProperty("ResponseBytes").GetDouble();
            double wire = bytes * 8 / BitsPerSecond;
            Assert.True(bytes > 100_000, $"{name}: {bytes} bytes per call");
            Assert.True(seconds >= wire * 0.9, string.Create(CultureInfo.InvariantCulture,
                $"{name}: median {seconds:0.000} s is faster than {bytes:0} bytes at 20 Mbit/s ({wire:0.000} s)"));
            medians[name] = seconds;
        }

        Assert.True(medians["nettcp-surrogate"] < medians["nettcp-binary"],
            $"surrogate {medians["nettcp-surrogate"]} s, plain {medians["nettcp-binary"]} s");

        // The namespace the console header names is gone once the run ends.
        Match ns = Regex.Match(output, @"in namespace (dss-\d+)");
        Assert.True(ns.Success, output);
        Assert.False(File.Exists(Path.Combine("/run/netns", ns.Groups[1].Value)), ns.Groups[1].Value + " is left over");
    }

    public void Dispose()
    {
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
