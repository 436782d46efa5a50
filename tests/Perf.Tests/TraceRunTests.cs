using System.Text.Json;

namespace Surrogate.Perf.Tests;

/// <summary>
/// A short traced run: both processes of both NetTcp cases are traced during the measured window, every trace gets
/// a speedscope file, and the analysis finds DataSet's XML loader in the plain client and the codec in the surrogate one.
/// </summary>
public sealed class TraceRunTests : IDisposable
{
    private readonly string folder = Path.Combine(Path.GetTempPath(), "perf-tests-trace-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public void Traced_run_writes_nettrace_and_speedscope_and_locates_the_deserializers()
    {
        var (exitCode, output) = HarnessRunFixture.RunHarness(
            "--quick", "--trace", "--cases", "nettcp-binary,nettcp-surrogate", "--scenarios", "rows-10000", "--duration", "1.5", "--out", folder);
        Assert.True(exitCode == 0, "harness failed:\n" + output);

        foreach (string cell in new[] { "nettcp-binary.rows-10000", "nettcp-surrogate.rows-10000" })
        {
            foreach (string process in new[] { "server", "client" })
            {
                string stem = Path.Combine(folder, "traces", $"{cell}.{process}");
                Assert.True(new FileInfo(stem + ".nettrace").Length > 10_000, stem + ".nettrace");
                using var speedscope = JsonDocument.Parse(File.ReadAllText(stem + ".speedscope.json"));
                Assert.True(speedscope.RootElement.GetProperty("profiles").GetArrayLength() > 0);
            }
        }

        using var results = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "results.json")));
        var traces = results.RootElement.GetProperty("Traces").EnumerateArray().ToList();
        Assert.Equal(4, traces.Count);
        JsonElement Trace(string caseName, string process) =>
            traces.Single(t => t.GetProperty("Case").GetString() == caseName && t.GetProperty("Process").GetString() == process);

        var plainClient = Trace("nettcp-binary", "client");
        var surrogateClient = Trace("nettcp-surrogate", "client");
        Assert.True(plainClient.GetProperty("DataSetXmlBusyShare").GetDouble() > 0.05, "plain client: XmlDataLoader share");
        Assert.Equal(0, plainClient.GetProperty("SurrogateShare").GetDouble());
        Assert.True(surrogateClient.GetProperty("SurrogateBusyShare").GetDouble() > 0.01, "surrogate client: codec share");
        Assert.Equal(0, surrogateClient.GetProperty("DataSetXmlShare").GetDouble());
        Assert.True(plainClient.GetProperty("TopExclusive").GetArrayLength() > 0);

        var (analyzeExit, analyzeOutput) = HarnessRunFixture.RunHarness("analyze", folder, "--top", "5");
        Assert.True(analyzeExit == 0, analyzeOutput);
        Assert.Contains("| client | nettcp-surrogate | rows-10000 |", analyzeOutput);
    }

    public void Dispose()
    {
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
