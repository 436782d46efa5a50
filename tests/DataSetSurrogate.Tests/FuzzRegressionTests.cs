using Surrogate.Fuzz;

namespace Surrogate.Tests;

/// <summary>
/// Replays every input the fuzzer ever flagged (Regression/*.bin, named after the finding) and every fuzz seed through
/// every fuzz target (tests/Fuzz: DataSet, DataTable, typed, reader, stream entry points): each must load or be
/// refused with DataSetSurrogateException, within the allocation bound, with the entry points agreeing.
/// </summary>
public sealed class FuzzRegressionTests
{
    /// <summary>A hang fails the run (naming the input) instead of blocking it; no timing is asserted.</summary>
    private static readonly TimeSpan HangLimit = TimeSpan.FromSeconds(60);

    public static TheoryData<string, string> Inputs()
    {
        var data = new TheoryData<string, string>();
        foreach (var folder in new[] { "Regression", "FuzzSeeds" })
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(AppContext.BaseDirectory, folder), "*.bin").Order(StringComparer.Ordinal))
            {
                foreach (var target in DecodeTargets.All.Keys)
                {
                    data.Add(target, Path.Combine(folder, Path.GetFileName(file)));
                }
            }
        }

        return data;
    }

    [Fact]
    public void The_corpora_are_present()
    {
        Assert.NotEmpty(Directory.EnumerateFiles(Path.Combine(AppContext.BaseDirectory, "Regression"), "*.bin"));
        Assert.True(Directory.EnumerateFiles(Path.Combine(AppContext.BaseDirectory, "FuzzSeeds"), "*.bin").Count() >= 50, "the fuzz seeds are missing");
    }

    [Theory]
    [MemberData(nameof(Inputs))]
    public async Task A_fuzz_input_loads_or_is_refused_by_the_library(string target, string file)
    {
        var input = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, file));
        var run = Task.Run(() => DecodeTargets.Check(target, input));
        if (await Task.WhenAny(run, Task.Delay(HangLimit)) != run)
        {
            Assert.Fail($"{file} through '{target}' took over {HangLimit}");
        }

        await run; // a finding (foreign exception, allocation, disagreement) fails here
    }
}
