namespace Surrogate.Tests;

/// <summary>Locates the repository (the folder holding Surrogate.sln) from the test's output folder.</summary>
internal static class RepositoryPaths
{
    public static string Root { get; } = FindRoot();

    public static string TestSource => Path.Combine(Root, "tests", "DataSetSurrogate.Tests");

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Surrogate.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("Surrogate.sln not found above " + AppContext.BaseDirectory);
    }
}
