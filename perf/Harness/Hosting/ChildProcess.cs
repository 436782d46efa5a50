using System.Diagnostics;
using System.Text;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// A child process running this same harness executable with a verb (<c>serve</c> or <c>client</c>), pinned to one
/// core with taskset when available, optionally inside a network namespace, spoken to by lines on stdin/stdout.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private readonly Process process;
    private readonly StringBuilder errors = new();

    private ChildProcess(Process process, string role, int? core)
    {
        this.process = process;
        Role = role;
        Core = core;
    }

    public string Role { get; }

    public int? Core { get; }

    public int Id => process.Id;

    public bool HasExited => process.HasExited;

    /// <summary>
    /// Starts <c>Harness verb args</c>; <paramref name="core"/> pins it when taskset exists; <paramref name="prefix"/>
    /// is a command that execs the rest (<c>ip netns exec &lt;ns&gt;</c>), so the process id is still the harness's.
    /// </summary>
    public static ChildProcess Start(string role, int? core, IReadOnlyList<string> prefix, string verb, params string[] args) =>
        StartCommand(role, core, prefix, HarnessProgram(verb, args));

    /// <summary>The command line that runs this harness with <paramref name="verb"/> and <paramref name="args"/>.</summary>
    public static IReadOnlyList<string> HarnessProgram(string verb, params string[] args)
    {
        var (harness, harnessArgs) = SelfCommand();
        return [harness, .. harnessArgs, verb, .. args];
    }

    /// <summary>
    /// Starts <paramref name="program"/> (file and arguments) as <see cref="Start"/> starts the harness: pinned, in the
    /// namespace; <paramref name="environment"/> adds variables to the child's environment.
    /// </summary>
    public static ChildProcess StartCommand(string role, int? core, IReadOnlyList<string> prefix, IReadOnlyList<string> program, IReadOnlyDictionary<string, string>? environment = null)
    {
        var info = new ProcessStartInfo
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.UTF8,
        };
        string[] pin = core is { } c ? [Pinning.TasksetPath!, "-c", c.ToString(System.Globalization.CultureInfo.InvariantCulture)] : [];
        string[] command = [.. prefix, .. pin, .. program];
        info.FileName = command[0];
        foreach (string a in command[1..])
        {
            info.ArgumentList.Add(a);
        }

        // Children inherit nothing that changes the runtime's behaviour from the driver's environment.
        info.Environment["DOTNET_gcServer"] = "0";
        foreach ((string name, string value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        var process = Process.Start(info) ?? throw new InvalidOperationException($"Could not start the {role} process.");
        var child = new ChildProcess(process, role, core);
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (child.errors)
                {
                    child.errors.AppendLine(e.Data);
                }
            }
        };
        process.BeginErrorReadLine();
        return child;
    }

    public async Task SendAsync(string line)
    {
        await process.StandardInput.WriteLineAsync(line);
        await process.StandardInput.FlushAsync();
    }

    /// <summary>Reads lines until one starts with <paramref name="prefix"/>; other lines go to <paramref name="onOther"/>.</summary>
    public async Task<string> ExpectAsync(string prefix, TimeSpan timeout, Action<string>? onOther = null)
    {
        using var cts = new CancellationTokenSource(timeout);
        while (true)
        {
            string? line;
            try
            {
                line = await process.StandardOutput.ReadLineAsync(cts.Token);
            }
            catch (OperationCanceledException)
            {
                throw new InvalidOperationException($"The {Role} process did not answer '{prefix}' within {timeout.TotalSeconds:0} s.{ErrorTail()}");
            }

            if (line is null)
            {
                await process.WaitForExitAsync(CancellationToken.None);
                throw new InvalidOperationException($"The {Role} process exited (code {process.ExitCode}) before answering '{prefix}'.{ErrorTail()}");
            }

            if (line.StartsWith(prefix, StringComparison.Ordinal))
            {
                return line[prefix.Length..].Trim();
            }

            if (line.StartsWith("ERROR", StringComparison.Ordinal))
            {
                // The details follow on stderr; give them a moment to arrive.
                await Task.Delay(TimeSpan.FromMilliseconds(300), CancellationToken.None);
                throw new InvalidOperationException($"The {Role} process reported: {line}{ErrorTail()}");
            }

            onOther?.Invoke(line);
        }
    }

    /// <summary>Ends the process at once (the driver is being stopped by a signal).</summary>
    public void Kill()
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // Already exited.
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!process.HasExited)
        {
            try
            {
                await SendAsync("QUIT");
                using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(10));
                await process.WaitForExitAsync(cts.Token);
            }
            catch (Exception e) when (e is IOException or OperationCanceledException or InvalidOperationException)
            {
                process.Kill(entireProcessTree: true);
            }
        }

        process.Dispose();
    }

    private string ErrorTail()
    {
        lock (errors)
        {
            string text = errors.ToString().Trim();
            return text.Length == 0 ? string.Empty : Environment.NewLine + "Its stderr:" + Environment.NewLine + text[Math.Max(0, text.Length - 4000)..];
        }
    }

    /// <summary>How to start this executable again: the apphost, or <c>dotnet Harness.dll</c>.</summary>
    private static (string FileName, string[] Args) SelfCommand()
    {
        string path = Environment.ProcessPath ?? throw new InvalidOperationException("The process path is unknown.");
        return Path.GetFileNameWithoutExtension(path).Equals("dotnet", StringComparison.OrdinalIgnoreCase)
            ? (path, [typeof(ChildProcess).Assembly.Location])
            : (path, []);
    }
}

/// <summary>Pins server and client to different cores on machines with at least two, via taskset.</summary>
public static class Pinning
{
    public static string? TasksetPath { get; } =
        new[] { "/usr/bin/taskset", "/bin/taskset" }.FirstOrDefault(File.Exists);

    public static bool Available => TasksetPath is not null && Environment.ProcessorCount >= 2 && OperatingSystem.IsLinux();

    public static string Describe(bool enabled) => enabled && Available
        ? "server on core 0, client on core 1 (taskset)"
        : Available ? "off (--no-pin)" : "off (taskset unavailable or fewer than 2 cores)";
}
