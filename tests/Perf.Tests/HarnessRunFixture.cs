using System.Diagnostics;
using System.Reflection;

namespace Surrogate.Perf.Tests;

/// <summary>
/// One harness run shared by the tests: the folder named by PERF_OUT (CI passes the folder of its --quick run), or
/// else a fresh run of the built harness on two scenarios with the quick profile, in a separate process.
/// </summary>
public sealed class HarnessRunFixture : IDisposable
{
    private readonly string? ownedFolder;

    public HarnessRunFixture()
    {
        string? given = Environment.GetEnvironmentVariable("PERF_OUT");
        if (!string.IsNullOrEmpty(given))
        {
            OutputFolder = Path.GetFullPath(given);
            Scenarios = ["small", "rows-10000", "rows-15000", "orders"];
            return;
        }

        ownedFolder = Path.Combine(Path.GetTempPath(), "perf-tests-" + Guid.NewGuid().ToString("N"));
        OutputFolder = ownedFolder;
        Scenarios = ["small", "rows-10000"];
        (ExitCode, Output) = RunHarness("--quick", "--scenarios", string.Join(',', Scenarios), "--out", ownedFolder);
    }

    public string OutputFolder { get; }

    public IReadOnlyList<string> Scenarios { get; }

    public int ExitCode { get; }

    public string Output { get; } = string.Empty;

    public string PathOf(string file) => Path.Combine(OutputFolder, file);

    /// <summary>Runs perf/Harness/bin/&lt;this configuration&gt;/net10.0/Harness.dll with dotnet.</summary>
    public static (int ExitCode, string Output) RunHarness(params string[] args) => RunHarness(new Dictionary<string, string>(), args);

    /// <summary>The same, with <paramref name="environment"/> added to the harness's environment.</summary>
    public static (int ExitCode, string Output) RunHarness(IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach ((string name, string value) in environment)
        {
            info.Environment[name] = value;
        }

        info.ArgumentList.Add(HarnessDll());
        foreach (string arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        using var process = Process.Start(info)!;
        var stderr = process.StandardError.ReadToEndAsync();
        string stdout = process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(TimeSpan.FromMinutes(8)))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException("The harness did not finish within 8 minutes.");
        }

        return (process.ExitCode, stdout + stderr.Result);
    }

    private static string HarnessDll()
    {
        // This assembly lives in tests/Perf.Tests/bin/<Configuration>/net10.0/.
        var bin = new DirectoryInfo(Path.GetDirectoryName(Assembly.GetExecutingAssembly().Location)!);
        string configuration = bin.Parent!.Name;
        string root = bin.Parent.Parent!.Parent!.Parent!.Parent!.FullName;
        string dll = Path.Combine(root, "perf", "Harness", "bin", configuration, "net10.0", "Harness.dll");
        return File.Exists(dll) ? dll : throw new FileNotFoundException("Build perf/Harness first.", dll);
    }

    public void Dispose()
    {
        if (ownedFolder is not null && Directory.Exists(ownedFolder))
        {
            Directory.Delete(ownedFolder, recursive: true);
        }
    }
}

[CollectionDefinition(Name)]
public sealed class HarnessRunCollection : ICollectionFixture<HarnessRunFixture>
{
    public const string Name = "harness run";
}
