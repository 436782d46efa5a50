namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// The client processes' side of the harness's line protocol (commands on stdin, answers on stdout), shared by the
/// comparison, latency and compression clients: announces the process, then hands each command line to its handler
/// until <c>QUIT</c> or the end of input. A handler's exception becomes one <c>ERROR</c> line (the driver lists the
/// cell as failed and goes on) and its stack goes to stderr.
/// </summary>
public static class ControlLines
{
    /// <summary>
    /// Answers <paramref name="ready"/>, then serves <paramref name="commands"/> (command word → handler of the rest of
    /// the line) on the calling thread, so every measured loop runs there and never inside a thread-pool continuation.
    /// </summary>
    public static int Serve(string ready, IReadOnlyDictionary<string, Action<string>> commands)
    {
        Reply(ready);
        while (Console.In.ReadLine() is { } line)
        {
            string[] parts = line.Split(' ', 2, StringSplitOptions.TrimEntries);
            if (parts[0] == "QUIT")
            {
                return 0;
            }

            if (!commands.TryGetValue(parts[0], out Action<string>? command))
            {
                Reply("ERROR unknown command " + parts[0]);
                continue;
            }

            try
            {
                command(parts.Length > 1 ? parts[1] : string.Empty);
            }
#pragma warning disable CA1031 // reported to the driver, which lists the cell as failed and goes on
            catch (Exception e)
#pragma warning restore CA1031
            {
                Reply("ERROR " + e.GetType().Name + ": " + Innermost(e).Message.ReplaceLineEndings(" "));
                Console.Error.WriteLine(e.ToString());
            }
        }

        return 0;
    }

    /// <summary>
    /// The next line of stdin, read on a thread of its own: a read blocks until the driver writes, and a process pinned
    /// to one core starts with one thread-pool thread, so a read held there left the socket completions waiting for
    /// the pool to add a thread (about 0.5–1 s; calls of 0.3 ms took up to 0.98 s at the start of measured windows).
    /// </summary>
    public static Task<string?> ReadLineOffPoolAsync() =>
        Task.Factory.StartNew(Console.In.ReadLine, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    /// <summary>One answer line, flushed at once; locked because progress lines may come from other threads (the soak).</summary>
    public static void Reply(string line)
    {
        lock (Console.Out)
        {
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }
    }

    private static Exception Innermost(Exception e) => e is System.Reflection.TargetInvocationException { InnerException: { } inner } ? Innermost(inner) : e;
}
