using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Tests;

/// <summary>
/// The harness's processes wait on stdin for the driver's next line (a server for its whole life, a compression
/// client through each measured window). Held on a thread-pool thread, that wait left a process pinned to one core
/// without a thread for its socket completions until the pool added one.
/// </summary>
public sealed class ControlLinesTests
{
    [Fact]
    public async Task A_control_line_is_read_on_a_thread_of_its_own_not_on_the_thread_pool()
    {
        var reader = new ThreadRecordingReader(["STATS", "STOP"]);
        TextReader stdin = Console.In;
        Console.SetIn(reader);
        try
        {
            Assert.Equal("STATS", await ControlLines.ReadLineOffPoolAsync());
            Assert.Equal("STOP", await ControlLines.ReadLineOffPoolAsync());
        }
        finally
        {
            Console.SetIn(stdin);
        }

        Assert.Equal([false, false], reader.OnThreadPool);
    }

    /// <summary>Gives its lines in turn and records, for each read, whether a thread-pool thread made it.</summary>
    private sealed class ThreadRecordingReader(IEnumerable<string> lines) : TextReader
    {
        private readonly Queue<string> _lines = new(lines);

        public List<bool> OnThreadPool { get; } = [];

        public override string? ReadLine()
        {
            OnThreadPool.Add(Thread.CurrentThread.IsThreadPoolThread);
            return _lines.TryDequeue(out string? line) ? line : null;
        }
    }
}
