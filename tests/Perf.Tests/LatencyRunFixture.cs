namespace Surrogate.Perf.Tests;

/// <summary>
/// One latency smoke run and one short soak shared by the tests: the folders LATENCY_OUT and LATENCY_SOAK_OUT name
/// (CI passes its smoke preset's and soak's), or else fresh runs of the built harness: the smoke preset at one size
/// with short cells, and a soak of a few seconds, each in a separate process.
/// </summary>
public sealed class LatencyRunFixture : IDisposable
{
    private readonly List<string> owned = [];

    public LatencyRunFixture()
    {
        (OutputFolder, ExitCode, Output) = Run("LATENCY_OUT", "--preset", "smoke", "--sizes", "100", "--duration", "0.3", "--warmup", "0.1");
        (SoakFolder, SoakExitCode, SoakOutput) = Run("LATENCY_SOAK_OUT", "--preset", "smoke", "--soak", "--soak-seconds", "8");
    }

    public string OutputFolder { get; }

    public int ExitCode { get; }

    public string Output { get; }

    public string SoakFolder { get; }

    public int SoakExitCode { get; }

    public string SoakOutput { get; }

    public string PathOf(string file) => Path.Combine(OutputFolder, file);

    public void Dispose()
    {
        foreach (string folder in owned.Where(Directory.Exists))
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private (string Folder, int ExitCode, string Output) Run(string variable, params string[] args)
    {
        if (Environment.GetEnvironmentVariable(variable) is { Length: > 0 } given)
        {
            return (Path.GetFullPath(given), 0, $"(the run in {given}, from {variable})");
        }

        string folder = Path.Combine(Path.GetTempPath(), "perf-tests-latency-" + Guid.NewGuid().ToString("N"));
        owned.Add(folder);
        var (code, output) = HarnessRunFixture.RunHarness(["latency", .. args, "--out", folder]);
        return (folder, code, output);
    }
}

[CollectionDefinition(Name)]
public sealed class LatencyRunCollection : ICollectionFixture<LatencyRunFixture>
{
    public const string Name = "latency run";
}
