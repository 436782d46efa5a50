using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace Surrogate.StandInHost.Transport;

/// <summary>Accepts TCP connections on one local address (127.0.0.1 by default) and hands each to the framing handler.</summary>
internal sealed partial class NetTcpListener : IAsyncDisposable
{
    /// <summary>The largest TCP segment the listener's connections use (see <see cref="LimitSegmentSize"/>).</summary>
    private const int SegmentSize = 4096;

    private readonly Socket socket;
    private readonly NetTcpFramingHandler handler;
    private readonly ILogger logger;
    private readonly CancellationTokenSource stopping = new();
    private readonly List<Task> connections = [];
    private Task acceptLoop = Task.CompletedTask;

    public NetTcpListener(IPAddress address, int port, NetTcpFramingHandler handler, ILogger logger)
    {
        this.handler = handler;
        this.logger = logger;
        socket = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        LimitSegmentSize(socket);
        socket.Bind(new IPEndPoint(address, port));
        Port = ((IPEndPoint)socket.LocalEndPoint!).Port;
    }

    /// <summary>The bound port (the real one when 0 was asked for).</summary>
    public int Port { get; }

    /// <summary>Starts accepting connections.</summary>
    public void Start()
    {
        socket.Listen(512);
        acceptLoop = AcceptLoopAsync();
    }

    /// <summary>Stops accepting, closes every open connection and waits for their handlers.</summary>
    public async ValueTask DisposeAsync()
    {
        await stopping.CancelAsync().ConfigureAwait(false);
        socket.Dispose();
        await acceptLoop.ConfigureAwait(false);
        Task[] open;
        lock (connections)
        {
            open = [.. connections];
        }

        await Task.WhenAll(open).ConfigureAwait(false);
        stopping.Dispose();
    }

    /// <summary>
    /// The WCF client shrinks its socket buffers to its ConnectionBufferSize (8 KB by default). On loopback, whose
    /// segments can reach 64 KB, such a receiver stops opening its window and the sender falls back to 200 ms
    /// zero-window probes: a 250 KB message then takes seconds. Segments well below the client's buffer keep the
    /// window moving. Only Linux exposes TCP_MAXSEG this way; elsewhere the default stays.
    /// </summary>
    private static void LimitSegmentSize(Socket listener)
    {
        if (OperatingSystem.IsLinux())
        {
            const int IpProtoTcp = 6, TcpMaxSeg = 2;
            listener.SetRawSocketOption(IpProtoTcp, TcpMaxSeg, BitConverter.GetBytes(SegmentSize));
        }
    }

    private async Task AcceptLoopAsync()
    {
        while (!stopping.IsCancellationRequested)
        {
            Socket accepted;
            try
            {
                accepted = await socket.AcceptAsync(stopping.Token).ConfigureAwait(false);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }

            accepted.NoDelay = true;
            Task connection = ServeAsync(accepted);
            lock (connections)
            {
                connections.RemoveAll(t => t.IsCompleted);
                connections.Add(connection);
            }
        }
    }

    private async Task ServeAsync(Socket accepted)
    {
        await Task.Yield();
        using var closed = CancellationTokenSource.CreateLinkedTokenSource(stopping.Token);
        using var stream = new NetworkStream(accepted, ownsSocket: true);
        PipeReader input = PipeReader.Create(stream, new StreamPipeReaderOptions(bufferSize: 64 * 1024, leaveOpen: true));
        PipeWriter output = PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true));
        try
        {
            await handler.OnConnectedAsync(input, output, accepted.RemoteEndPoint?.ToString(), closed.Cancel, closed.Token)
                .ConfigureAwait(false);
        }
#pragma warning disable CA1031 // One connection's failure must not stop the listener.
        catch (Exception e)
#pragma warning restore CA1031
        {
            LogConnectionFailed(logger, e);
        }
        finally
        {
            await input.CompleteAsync().ConfigureAwait(false);
            try
            {
                await output.CompleteAsync().ConfigureAwait(false);
            }
            catch (IOException)
            {
                // Completing flushes what the handler left unsent; a peer that already closed (a reply the fault
                // tests cut, an aborted client) makes that a broken pipe, which ends this connection as it was ending.
            }

            accepted.Close();
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "A net.tcp connection handler failed")]
    private static partial void LogConnectionFailed(ILogger logger, Exception exception);
}
