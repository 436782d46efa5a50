using System.Net.Sockets;
using System.ServiceModel;
using System.ServiceModel.Description;
using Surrogate.Integration.Tests;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// A relay between two Unix domain sockets: listens on a socket of its own and forwards each connection to the
/// host's socket, keeping the bytes of each direction as <see cref="CountingProxy"/> does over TCP.
/// </summary>
public sealed class CountingUnixSocketRelay : ICountingRelay
{
    /// <summary>
    /// The TCP port a routed client's address names. Nobody listens on it, so a call that went over TCP instead of
    /// the socket could not succeed.
    /// </summary>
    private const int UnusedTcpPort = 1;

    private readonly Socket _listener = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
    private readonly UnixDomainSocketEndPoint _target;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _tasks = [];
    private readonly WireRecording _recording;

    /// <summary>A relay on a new socket of its own in front of <paramref name="targetSocketPath"/>.</summary>
    public CountingUnixSocketRelay(string targetSocketPath)
        : this(targetSocketPath, UnixSocketHttp.NewPath(), new WireRecording())
    {
    }

    /// <summary>A relay listening at <paramref name="socketPath"/> that records into <paramref name="recording"/>.</summary>
    public CountingUnixSocketRelay(string targetSocketPath, string socketPath, WireRecording recording)
    {
        TargetPath = targetSocketPath;
        _target = new UnixDomainSocketEndPoint(targetSocketPath);
        _recording = recording;
        SocketPath = socketPath;
        _listener.Bind(new UnixDomainSocketEndPoint(SocketPath));
        _listener.Listen();
        _tasks.Add(AcceptAsync());
    }

    /// <summary>The socket clients dial; deleted on dispose.</summary>
    public string SocketPath { get; }

    /// <summary>The host's socket.</summary>
    public string TargetPath { get; }

    public byte[] Sent => _recording.Sent;

    public byte[] Received => _recording.Received;

    public void Reset() => _recording.Reset();

    public void Route(ServiceEndpoint endpoint)
    {
        endpoint.Address = new EndpointAddress(new UriBuilder(endpoint.Address.Uri) { Port = UnusedTcpPort }.Uri);
        endpoint.EndpointBehaviors.Add(new UnixSocketHttp(SocketPath));
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Dispose();
        Task[] tasks;
        lock (_tasks)
        {
            tasks = [.. _tasks];
        }

        try
        {
            await Task.WhenAll(tasks).WaitAsync(TimeSpan.FromSeconds(5));
        }
        catch (TimeoutException)
        {
            // A connection that does not notice the cancellation must not hold up the other tests.
        }

        _stop.Dispose();
        File.Delete(SocketPath);
    }

    private async Task AcceptAsync()
    {
        while (true)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptAsync(_stop.Token);
            }
            catch (Exception)
            {
                return; // stopped
            }

            lock (_tasks)
            {
                _tasks.Add(RelayAsync(client));
            }
        }
    }

    private async Task RelayAsync(Socket client)
    {
        using var connection = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
        using var clientStream = new NetworkStream(client, ownsSocket: true);
        var host = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await host.ConnectAsync(_target, connection.Token);
        }
        catch (Exception)
        {
            host.Dispose();
            return; // the client sees its connection closed
        }

        using var hostStream = new NetworkStream(host, ownsSocket: true);
        await Task.WhenAll(
            PumpAsync(clientStream, hostStream, toHost: true, connection),
            PumpAsync(hostStream, clientStream, toHost: false, connection));
    }

    private async Task PumpAsync(NetworkStream from, NetworkStream to, bool toHost, CancellationTokenSource connection)
    {
        byte[] buffer = new byte[64 * 1024];
        try
        {
            int read;
            while ((read = await from.ReadAsync(buffer, connection.Token)) > 0)
            {
                _recording.Record(toHost, buffer, read);

                await to.WriteAsync(buffer.AsMemory(0, read), connection.Token);
            }

            // Pass the end on but keep the other direction open: it may still carry a reply.
            to.Socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception)
        {
            // A reset or stopped connection ends both of its directions.
            await connection.CancelAsync();
        }
    }
}
