using System.Data;
using System.Xml;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Fuzz;

/// <summary>
/// Writes the seed payloads afl-fuzz starts from: the golden payload files (tests/DataSetSurrogate.Tests/Golden), every
/// fidelity fixture, the typed Orders shape as DataSet, DataTable and data-reader payloads, and each file of the DataSet XML corpus (Mono's System.Data test files) loaded with
/// ReadXml/ReadXmlSchema and serialized, and the Orders shape with its row blocks compressed by each codec. Seeds over <see cref="MaxSeedBytes"/> are left out: small inputs fuzz faster.
/// The output is committed (tests/Fuzz/Seeds), so neither the fuzzer nor the tests need the corpus.
/// </summary>
public static class SeedPayloads
{
    public const int MaxSeedBytes = 16 * 1024;

    public static int Write(string output, string golden, string? corpus)
    {
        Directory.CreateDirectory(output);
        var written = 0;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var file in Directory.EnumerateFiles(golden, "*.bin", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            written += Save(output, seen, "golden-" + Path.GetFileNameWithoutExtension(file), () => File.ReadAllBytes(file));
        }

        foreach (var name in FidelityFixtures.All.Select(f => (string)f[0]))
        {
            written += Save(output, seen, "fixture-" + name, () => DataSetSerializer.Serialize(FidelityFixtures.Create(name)));
        }

        written += Save(output, seen, "orders-dataset", () => DataSetSerializer.Serialize(FidelityFixtures.Orders(12)));
        written += Save(output, seen, "orders-table", () => DataSetSerializer.Serialize(FidelityFixtures.Orders(12).Tables[0]));
        written += Save(output, seen, "orders-reader", () => DataSetSerializer.Serialize(FidelityFixtures.Orders(12).CreateDataReader()));
        foreach (var codec in new[] { RowBlockCodec.Lz4, RowBlockCodec.Zstd, RowBlockCodec.Brotli, RowBlockCodec.Deflate })
        {
            // Compressed row blocks: the fuzzer mutates codec, raw length and data, and what they decompress to.
            var options = new SurrogateOptions { BlockCodec = codec, RowsPerBlock = 8 };
            var name = codec.ToString().ToLowerInvariant();
            written += Save(output, seen, "compressed-orders-dataset-" + name, () => DataSetSerializer.Serialize(FidelityFixtures.Orders(12), options));
            written += Save(output, seen, "compressed-orders-reader-" + name, () => DataSetSerializer.Serialize(FidelityFixtures.Orders(12).CreateDataReader(), options));
        }
        if (corpus is not null)
        {
            foreach (var line in File.ReadLines(Path.Combine(corpus, "manifest.tsv")).Skip(1))
            {
                var parts = line.Split('\t');
                var name = "corpus-" + string.Concat(parts[0].Replace('/', '-').Where(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '.'));
                written += Save(output, seen, name, () => DataSetSerializer.Serialize(Load(corpus, parts[0], parts[1], parts.Length > 2 ? parts[2] : "")));
            }
        }

        Console.WriteLine($"{written} seeds written to {output}");
        return 0;
    }

    /// <summary>Writes one seed unless it fails, is too large, or repeats an earlier one (the golden files are the
    /// fixtures' payloads).</summary>
    private static int Save(string output, HashSet<string> seen, string name, Func<byte[]> payload)
    {
        byte[] bytes;
        try
        {
            bytes = payload();
        }
        catch (Exception ex) when (ex is DataSetSurrogateException or DataException or XmlException or System.Xml.Schema.XmlSchemaException or ArgumentException or InvalidOperationException)
        {
            // Files .NET cannot load, and the Type-column files the codec refuses by design: no seed.
            Console.WriteLine($"{name}: skipped ({ex.GetType().Name})");
            return 0;
        }

        if (bytes.Length > MaxSeedBytes)
        {
            Console.WriteLine($"{name}: skipped ({bytes.Length} bytes)");
            return 0;
        }

        if (!seen.Add(Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(bytes))))
        {
            return 0;
        }

        File.WriteAllBytes(Path.Combine(output, name + ".bin"), bytes);
        return 1;
    }

    private static DataSet Load(string corpus, string path, string kind, string pairsWith)
    {
        var dataSet = new DataSet();
        var file = Path.Combine(corpus, path);
        if (pairsWith.Length > 0 || kind == "schema only")
        {
            using var schema = Safe(pairsWith.Length > 0 ? Path.Combine(corpus, pairsWith) : file);
            dataSet.ReadXmlSchema(schema);
            if (kind == "schema only")
            {
                return dataSet;
            }
        }

        using var reader = Safe(file);
#pragma warning disable CA2351 // Committed corpus files, read once to make seeds; never input from a peer.
        dataSet.ReadXml(reader);
#pragma warning restore CA2351
        return dataSet;
    }

    private static XmlReader Safe(string file) =>
        XmlReader.Create(file, new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null });
}
