using System.Data;
using System.Globalization;
using System.Security.Cryptography;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// The wire format is pinned by committed files: any change to the bytes fails here. Regenerate deliberately with
/// UPDATE_GOLDEN=1 (and say why in the commit). Each payload is written under every test culture and must be the same
/// bytes each time, and read back under every test culture.
/// </summary>
public sealed class GoldenWireTests
{
    private static bool Update => Environment.GetEnvironmentVariable("UPDATE_GOLDEN") == "1";

    /// <summary>Writes the DataSet under every test culture: the bytes must not depend on it.</summary>
    private static byte[] Written(DataSet ds)
    {
        var payloads = Cultures.All.Select(c => (Culture: c, Bytes: Cultures.Under(c, () => DataSetSerializer.Serialize(ds)))).ToArray();
        foreach (var (culture, bytes) in payloads)
        {
            Assert.True(bytes.AsSpan().SequenceEqual(payloads[0].Bytes), $"written under '{culture}' the payload differs from the one written under '{payloads[0].Culture}'");
        }

        return payloads[0].Bytes;
    }

    /// <summary>Reads the payload under every test culture and compares each result with the source, field by field.</summary>
    private static void ReadsBackEverywhere(DataSet expected, byte[] payload)
    {
        foreach (var culture in Cultures.All)
        {
            DataSetAssert.Equivalent(expected, Cultures.Under(culture, () => DataSetSerializer.Deserialize(payload)));
        }
    }

    /// <summary>
    /// DataSet "G" (locale en-US, set), table "T" with Id int and Name string, rows (1, "a") Unchanged and (2, null)
    /// Added. Decoded: 0D 44535350 magic "DSSP" | 10 01 version 1 | 18 .. kind DataSet | 22 .. header { name "G",
    /// case_sensitive false, locale "en-US", locale_set true, enforce } | 2A .. table { name "T", case_sensitive false,
    /// locale "en-US", both inherited, columns Id:int32, Name:string } | 3A .. row block { 2 rows, states
    /// [UNCHANGED, ADDED], Id ints [1,2], Name null bitmap 0b10 + strings ["a"] } | 32 .. tail (empty).
    /// </summary>
    [Fact]
    public void Tiny_payload_matches_its_golden_hex()
    {
        var ds = Tiny();
        var hex = Convert.ToHexString(Written(ds));
        var path = Path.Combine(RepositoryPaths.TestSource, "Golden", "tiny.hex");
        if (Update)
        {
            File.WriteAllText(path, hex + "\n");
        }

        Assert.Equal(File.ReadAllText(path).Trim(), hex);
        ReadsBackEverywhere(ds, Convert.FromHexString(hex));
    }

    [Fact]
    public void Realistic_payload_matches_its_golden_file_and_still_reads()
    {
        var ds = Realistic();
        var bytes = Written(ds);
        var path = Path.Combine(RepositoryPaths.TestSource, "Golden", "orders-states.bin");
        if (Update)
        {
            File.WriteAllBytes(path, bytes);
        }

        var golden = File.ReadAllBytes(path);
        Assert.True(golden.AsSpan().SequenceEqual(bytes), $"the payload changed: {bytes.Length} bytes now, {golden.Length} in the golden file");
        ReadsBackEverywhere(ds, golden);
    }

    /// <summary>
    /// Every fidelity fixture is pinned too, so each column codec (floats, Guid, byte[], BigInteger, DateTimeOffset,
    /// SqlTypes, object columns, extended properties, constraints, errors) has its bytes under test. The fixtures are
    /// made under en-US, because a DataSet whose Locale is never set takes the culture current when it is made.
    /// </summary>
    [Theory]
    [MemberData(nameof(FidelityFixtures.All), MemberType = typeof(FidelityFixtures))]
    public void Every_fixture_payload_matches_its_golden_file(string fixture)
    {
        var ds = Cultures.Under("en-US", () => FidelityFixtures.Create(fixture));
        var bytes = Written(ds);
        // Payloads over 64 KB (a 1 MB byte[] cell, 100 KB of strings) are pinned by length and SHA-256 only.
        var big = bytes.Length > 64 * 1024;
        var golden = big ? Convert.ToHexString(SHA256.HashData(bytes)) + " " + bytes.Length : null;
        var path = Path.Combine(RepositoryPaths.TestSource, "Golden", "fixtures", fixture + (big ? ".sha256" : ".bin"));
        if (Update)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            if (big)
            {
                File.WriteAllText(path, golden + "\n");
            }
            else
            {
                File.WriteAllBytes(path, bytes);
            }
        }

        if (big)
        {
            Assert.Equal(File.ReadAllText(path).Trim(), golden);
        }
        else
        {
            var pinned = File.ReadAllBytes(path);
            Assert.True(pinned.AsSpan().SequenceEqual(bytes), $"{fixture}: the payload changed: {bytes.Length} bytes now, {pinned.Length} in the golden file");
        }

        ReadsBackEverywhere(ds, bytes);
    }

    internal static DataSet Tiny()
    {
        var ds = new DataSet("G") { Locale = CultureInfo.GetCultureInfo("en-US") };
        var t = ds.Tables.Add("T");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("Name", typeof(string));
        t.Rows.Add(1, "a");
        t.AcceptChanges();
        t.Rows.Add(2, DBNull.Value);
        return ds;
    }

    private static DataSet Realistic()
    {
        var ds = Cultures.Under("en-US", () => FidelityFixtures.Orders(300));
        ds.Locale = CultureInfo.GetCultureInfo("en-US");
        var orders = ds.Tables["Orders"]!;
        orders.Rows[3]["City"] = "Changed";
        orders.Rows[4].Delete();
        orders.Rows.Add(100_000, "C000001", "Bristol", "OR", new DateTime(2025, 6, 1, 0, 0, 0, DateTimeKind.Utc), 12.30m);
        orders.Rows[5].RowError = "check address";
        return ds;
    }
}
