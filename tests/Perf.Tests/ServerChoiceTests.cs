using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Tests;

/// <summary>
/// <c>--server corewcf</c> where the CoreWCF server is not built (HARNESS_COREWCF_SERVER names a folder without a
/// build): the harness says so with the build command and exits 2 before it starts anything.
/// </summary>
public sealed class ServerChoiceTests
{
    [Fact]
    public void Asking_for_CoreWCF_without_its_build_exits_2_with_the_build_command()
    {
        string missing = Path.Combine(Path.GetTempPath(), "no-corewcf-server-" + Guid.NewGuid().ToString("N"));
        string output = Path.Combine(Path.GetTempPath(), "perf-tests-" + Guid.NewGuid().ToString("N"));

        var (exitCode, text) = HarnessRunFixture.RunHarness(
            new Dictionary<string, string> { [ServerChoice.ServerFolderVariable] = missing },
            "--server", "corewcf", "--quick", "--scenarios", "small", "--out", output);

        Assert.Equal(2, exitCode);
        Assert.Contains(ServerChoice.BuildCommand, text, StringComparison.Ordinal);
        Assert.Contains(Path.Combine(missing, "bin"), text, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output), "nothing was measured or written");
    }
}
