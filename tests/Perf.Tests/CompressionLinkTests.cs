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
            string contender = cell.GetProperty("contender").GetString()!;
            double perSecond = cell.GetProperty("opsPerSecond").GetDouble();
            double bits = perSecond * cell.GetProperty("responseBytes").GetDouble() * 8;
            Assert.True(bits <= BitsPerSecond * 1.02, string.Create(CultureInfo.InvariantCulture, $"{contender}: {bits / 1e6:0.0} Mbit/s of replies through a 20 Mbit/s link"));
            ops[contender] = perSecond;
        }

        Assert.True(ops["zstd-1"] > 1.5 * ops["uncompressed"], $"zstd-1 {ops["zstd-1"]} ops/s, uncompressed {ops["uncompressed"]} ops/s");
        Match ns = Regex.Match(output + File.ReadAllText(Path.Combine(folder, "results.md")), @"in namespace (dss-\d+)");
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

/// <summary>Runs that create a shaped link, one at a time (each shapes its own veth pair, but they would share the cores).</summary>
[CollectionDefinition(Name)]
public sealed class LinkRunCollection
{
    public const string Name = "shaped link runs";
}
