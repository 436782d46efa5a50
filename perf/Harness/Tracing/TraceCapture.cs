using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing.Parsers;

namespace Surrogate.Perf.Harness.Tracing;

/// <summary>
/// An EventPipe session on another process (server or client), opened by the driver around a measured window:
/// SampleProfiler (thread-time stacks) plus the runtime's default keywords, with rundown so managed frames resolve.
/// The driver traces its children rather than each process tracing itself, which would put the reader thread in
/// the samples and risks the EventPipe configuration deadlock of dotnet/runtime#45518.
/// </summary>
public sealed class TraceCapture : IAsyncDisposable
{
    private readonly EventPipeSession session;
    private readonly FileStream file;
    private readonly Task copy;

    private TraceCapture(EventPipeSession session, FileStream file, string path)
    {
        this.session = session;
        this.file = file;
        Path = path;
        copy = session.EventStream.CopyToAsync(file);
    }

    public string Path { get; }

    public static TraceCapture Start(int processId, string path)
    {
        EventPipeProvider[] providers =
        [
            new("Microsoft-DotNETCore-SampleProfiler", EventLevel.Informational),
            new("Microsoft-Windows-DotNETRuntime", EventLevel.Informational, (long)ClrTraceEventParser.Keywords.Default),
        ];
        var session = new DiagnosticsClient(processId).StartEventPipeSession(providers, requestRundown: true, circularBufferMB: 256);
        var file = File.Create(path);
        return new TraceCapture(session, file, path);
    }

    /// <summary>Stops the session (rundown follows) and waits until the whole stream is on disk.</summary>
    public async Task StopAsync()
    {
        await session.StopAsync(CancellationToken.None);
        await copy;
        await file.FlushAsync();
    }

    public async ValueTask DisposeAsync()
    {
        session.Dispose();
        await file.DisposeAsync();
    }
}
