using System.Globalization;

namespace Surrogate.Perf.Tests;

/// <summary>
/// One run of the compression benchmarks' short version shared by the tests: the folder COMPRESSION_OUT names (CI
/// passes its own run's), or else a fresh <c>compression --quick</c> of the built harness in a separate process.
/// </summary>
public sealed class CompressionRunFixture : IDisposable
{
    private readonly string? owned;

    public CompressionRunFixture()
    {
        if (Environment.GetEnvironmentVariable("COMPRESSION_OUT") is { Length: > 0 } given)
        {
            OutputFolder = Path.GetFullPath(given);
            Output = $"(the run in {given}, from COMPRESSION_OUT)";
            return;
        }

        owned = Path.Combine(Path.GetTempPath(), "perf-tests-compression-" + Guid.NewGuid().ToString("N"));
        OutputFolder = owned;
        (ExitCode, Output) = HarnessRunFixture.RunHarness("compression", "--quick", "--out", owned);
    }

    public string OutputFolder { get; }

    public int ExitCode { get; }

    public string Output { get; }

    public string PathOf(string file) => Path.Combine(OutputFolder, file);

    /// <summary>The rows of a CSV file the run wrote, by column name.</summary>
    public List<Dictionary<string, string>> Rows(string file)
    {
        return CsvRows.Read(PathOf(file));
    }

    public static double Number(string text) => text == "inf" ? double.PositiveInfinity : double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);

    public void Dispose()
    {
        if (owned is not null && Directory.Exists(owned))
        {
            Directory.Delete(owned, recursive: true);
        }
    }
}

[CollectionDefinition(Name)]
public sealed class CompressionRunCollection : ICollectionFixture<CompressionRunFixture>
{
    public const string Name = "compression run";
}
