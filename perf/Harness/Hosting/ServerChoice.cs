namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// Which server process the comparison runs against: the stand-in host (<c>Harness serve</c>, tests/StandInHost) or
/// CoreWCF (perf/CoreWcfServer, built on its own where CoreWCF restores; not part of Surrogate.sln).
/// </summary>
public sealed record ServerChoice(string Name, string Description, IReadOnlyList<string>? Program)
{
    public const string BuildCommand = "dotnet build -c Release perf/CoreWcfServer [-p:LocalPackageSource=<folder with the CoreWCF packages>]";

    /// <summary>
    /// Environment variable naming the CoreWCF server's project folder, whose bin/ the harness looks in (a build kept
    /// elsewhere; the tests point it at a folder without one); default: perf/CoreWcfServer above the harness.
    /// </summary>
    public const string ServerFolderVariable = "HARNESS_COREWCF_SERVER";

    /// <summary>The message for <c>--server corewcf</c> without a build (the run exits with 2).</summary>
    public static string NotBuilt =>
        $"--server corewcf: the CoreWCF server is not built (no {Path.Combine(ServerFolder() ?? "perf/CoreWcfServer", "bin", "<Release|Debug>", "net10.0", "CoreWcfServer.dll")}). " +
        $"Build it with: {BuildCommand}";

    /// <summary><paramref name="name"/> or, when null, CoreWCF if built and else the stand-in host; null when CoreWCF is asked for but not built.</summary>
    public static ServerChoice? Resolve(string? name)
    {
        string? coreWcf = CoreWcfServerDll();
        return name switch
        {
            "soaphost" => StandIn,
            "corewcf" => coreWcf is null ? null : CoreWcf(coreWcf),
            _ => coreWcf is null ? StandIn : CoreWcf(coreWcf),
        };
    }

    /// <summary>Starts the server, pinned to <paramref name="core"/> and inside <paramref name="prefix"/> (the link's namespace).</summary>
    public ChildProcess Start(int? core, IReadOnlyList<string> prefix, string[] listen) => Program is null
        ? ChildProcess.Start("server", core, prefix, "serve", listen)
        : ChildProcess.StartCommand("server", core, prefix, [.. Program, .. listen]);

    /// <summary>Starts this server's build with a verb (<c>latency-serve</c>, <c>latency-client</c>): the harness itself, or the CoreWCF server's executable.</summary>
    public ChildProcess StartVerb(string role, int? core, IReadOnlyList<string> prefix, string verb, params string[] args) => Program is null
        ? ChildProcess.Start(role, core, prefix, verb, args)
        : ChildProcess.StartCommand(role, core, prefix, [.. Program, verb, .. args]);

    private static ServerChoice StandIn { get; } = new("soaphost",
        "stand-in SOAP host (tests/StandInHost, built from the WCF client's own pieces; not CoreWCF)", null);

    private static ServerChoice CoreWcf(string dll) => new("corewcf",
        $"CoreWCF {CoreWcfVersion(dll)} (perf/CoreWcfServer) on Kestrel",
        [Environment.ProcessPath is { } p && Path.GetFileNameWithoutExtension(p) == "dotnet" ? p : "dotnet", dll]);

    private static string CoreWcfVersion(string dll)
    {
        string primitives = Path.Combine(Path.GetDirectoryName(dll)!, "CoreWCF.Primitives.dll");
        return File.Exists(primitives)
            ? System.Diagnostics.FileVersionInfo.GetVersionInfo(primitives).ProductVersion?.Split('+')[0] ?? "?"
            : "?";
    }

    /// <summary>The CoreWCF server's build in <see cref="ServerFolder"/>, Release first.</summary>
    private static string? CoreWcfServerDll() => ServerFolder() is { } project
        ? new[] { "Release", "Debug" }.Select(c => Path.Combine(project, "bin", c, "net10.0", "CoreWcfServer.dll")).FirstOrDefault(File.Exists)
        : null;

    /// <summary>The folder <see cref="ServerFolderVariable"/> names, else perf/CoreWcfServer of the repository above the harness.</summary>
    private static string? ServerFolder()
    {
        if (Environment.GetEnvironmentVariable(ServerFolderVariable) is { Length: > 0 } named)
        {
            return Path.GetFullPath(named);
        }

        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            string project = Path.Combine(dir.FullName, "perf", "CoreWcfServer");
            if (Directory.Exists(project))
            {
                return project;
            }
        }

        return null;
    }
}
