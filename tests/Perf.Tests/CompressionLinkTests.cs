using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Surrogate.Perf.Harness.Compression;

namespace Surrogate.Perf.Tests;

/// <summary>
/// <c>compression --links 20mbit</c>: as root, two clients over a shaped 20 Mbit/s link never move more than the
/// rate, the small burst is the one reported, and zstd beats uncompressed 1,000-order replies (the link is the
/// bottleneck there); without root the harness refuses with exit code 2 and names root.
/// </summary>
[Collection(LinkRunCollection.Name)]
public sealed class CompressionLinkTests : IDisposable
{
    private const double BitsPerSecond = 20e6;
    private readonly string folder = Path.Combine(Path.GetTempPath(), "perf-tests-compression-link-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public void Shaped_link_is_bounded_by_its_rate_and_compression_wins_on_it_or_the_harness_refuses_without_root()
    {
        var (exitCode, output) = HarnessRunFixture.RunHarness(
            "compression", "--quick", "--links", "20mbit", "--contenders", "zstd-1", "--classes", "orders", "--sizes", "1000",
            "--clients", "2", "--duration", "3", "--warmup", "0.5", "--out", folder);
        if (!Environment.IsPrivilegedProcess)
        {
            Assert.True(exitCode == 2, "expected a refusal without root:\n" + output);
            Assert.Contains("root", output, StringComparison.Ordinal);
            return;
        }

        Assert.True(exitCode == 0, "harness failed:\n" + output);
        using var results = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "results.json")));
        JsonElement link = Assert.Single(results.RootElement.GetProperty("links").EnumerateArray());
        Assert.Equal(20_000_000, link.GetProperty("bitsPerSecond").GetInt64());
        Assert.Equal(BenchLink.SmallBurst(20_000_000), link.GetProperty("burstBytes").GetInt64());
        Assert.Equal(2, link.GetProperty("clients").GetInt32());
        Assert.Contains("burst 3028 bytes", link.GetProperty("description").GetString(), StringComparison.Ordinal);

        var ops = new Dictionary<string, double>();
        foreach (JsonElement cell in results.RootElement.GetProperty("cells").EnumerateArray())
        {
            AssertWithinRate(cell);
            ops[cell.GetProperty("contender").GetString()!] = cell.GetProperty("opsPerSecond").GetDouble();
        }

        Assert.True(ops["zstd-1"] > 1.5 * ops["uncompressed"], $"zstd-1 {ops["zstd-1"]} ops/s, uncompressed {ops["uncompressed"]} ops/s");
        Match ns = Regex.Match(output + File.ReadAllText(Path.Combine(folder, "results.md")), @"in namespace (dss-\d+)");
        Assert.True(ns.Success, output);
        Assert.False(File.Exists(Path.Combine("/run/netns", ns.Groups[1].Value)), ns.Groups[1].Value + " is left over");
    }

    /// <summary>
    /// Four clients that each make only three calls of 150 KB: every round of every contender still adds up to no
    /// more than the link carries, so a client that finishes first does not leave the others a faster link to be
    /// measured on.
    /// </summary>
    [Fact]
    public void Few_calls_per_client_still_add_up_to_no_more_than_the_link_carries_or_the_harness_refuses_without_root()
    {
        var (exitCode, output) = HarnessRunFixture.RunHarness(
            "compression", "--quick", "--links", "20mbit", "--contenders", "zstd-1", "--classes", "complex", "--sizes", "153600",
            "--clients", "4", "--rounds", "3", "--duration", "0.3", "--warmup", "0.3", "--out", folder);
        if (!Environment.IsPrivilegedProcess)
        {
            Assert.True(exitCode == 2, "expected a refusal without root:\n" + output);
            return;
        }

        Assert.True(exitCode == 0, "harness failed:\n" + output);
        using var results = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "results.json")));
        JsonElement[] cells = [.. results.RootElement.GetProperty("cells").EnumerateArray()];
        Assert.Equal(["uncompressed", "zstd-1"], cells.Select(c => c.GetProperty("contender").GetString()).Order());
        foreach (JsonElement cell in cells)
        {
            AssertWithinRate(cell);
        }
    }

    /// <summary>
    /// Replies per second times bytes per reply is at most the link's rate (2% for the counters' rounding; TCP/IP
    /// headers make the true goodput lower still), in the cell and in each of its rounds.
    /// </summary>
    private static void AssertWithinRate(JsonElement cell)
    {
        string contender = cell.GetProperty("contender").GetString()!;
        double bytes = cell.GetProperty("responseBytes").GetDouble();
        IEnumerable<double> rounds = cell.TryGetProperty("roundOpsPerSecond", out JsonElement all) && all.ValueKind == JsonValueKind.Array
            ? all.EnumerateArray().Select(r => r.GetDouble())
            : [];
        foreach (double perSecond in rounds.Prepend(cell.GetProperty("opsPerSecond").GetDouble()))
        {
            double bits = perSecond * bytes * 8;
            Assert.True(bits <= BitsPerSecond * 1.02, string.Create(CultureInfo.InvariantCulture, $"{contender}: {bits / 1e6:0.0} Mbit/s of replies through a 20 Mbit/s link"));
        }
    }

    public void Dispose()
    {
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}

/// <summary>Runs that create a shaped link, one at a time (each shapes its own veth pair, but they would share the cores).</summary>
[CollectionDefinition(Name)]
public sealed class LinkRunCollection
{
    public const string Name = "shaped link runs";
}
