using System.Net;
using System.Net.Sockets;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// A loopback TCP relay that counts the bytes read from each socket: what the client sends (requests, framing,
/// HTTP headers) and what the server sends back. Used only for a separate byte-counting pass, never while timing,
/// so the extra hop does not distort latency.
/// </summary>
public sealed class ByteCountingRelay : IAsyncDisposable
{
    private readonly TcpListener listener = new(IPAddress.Loopback, 0);
    private readonly IPEndPoint target;
    private readonly CancellationTokenSource stop = new();
    private readonly List<Task> pumps = [];
    private readonly Task acceptLoop;
    private long sent;
    private long received;

    public ByteCountingRelay(IPEndPoint target)
    {
        this.target = target;
        listener.Start();
        acceptLoop = AcceptAsync();
    }

    public int Port => ((IPEndPoint)listener.LocalEndpoint).Port;

    /// <summary>Bytes from client to server so far.</summary>
    public long BytesSent => Interlocked.Read(ref sent);

    /// <summary>Bytes from server to client so far.</summary>
    public long BytesReceived => Interlocked.Read(ref received);

    /// <summary>The same address with the relay's port in place of the server's.</summary>
    public Uri Rewrite(Uri address) => new UriBuilder(address) { Port = Port }.Uri;

    private async Task AcceptAsync()
    {
        while (!stop.IsCancellationRequested)
        {
            TcpClient inbound;
            try
            {
                inbound = await listener.AcceptTcpClientAsync(stop.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            var outbound = new TcpClient { NoDelay = true };
            inbound.NoDelay = true;
            await outbound.ConnectAsync(target, stop.Token);
            lock (pumps)
            {
                pumps.Add(PumpAsync(inbound, outbound, toServer: true));
                pumps.Add(PumpAsync(outbound, inbound, toServer: false));
            }
        }
    }

    private async Task PumpAsync(TcpClient from, TcpClient to, bool toServer)
    {
        byte[] buffer = new byte[64 * 1024];
        try
        {
            var source = from.GetStream();
            var sink = to.GetStream();
            int n;
            while ((n = await source.ReadAsync(buffer, stop.Token)) > 0)
            {
                Interlocked.Add(ref toServer ? ref sent : ref received, n);
                await sink.WriteAsync(buffer.AsMemory(0, n), stop.Token);
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException or SocketException)
        {
            // One side closed: the connection is over.
        }
        finally
        {
            from.Close();
            to.Close();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await stop.CancelAsync();
        listener.Stop();
        await acceptLoop;
        Task[] running;
        lock (pumps)
        {
            running = [.. pumps];
        }

        await Task.WhenAll(running);
        stop.Dispose();
    }
}
