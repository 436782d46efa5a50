using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Surrogate.Perf.Harness.Latency.Contracts;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>
/// The one-way calls' side channel, server side: a TCP listener next to the service. Each client connection is given
/// an id (four bytes, little-endian) and receives one byte each time a one-way operation carrying that id has its
/// payload. The client times from its send to that byte with its own clock, so client send → service receipt is
/// measured with one clock even when the service is in another network namespace.
/// </summary>
public sealed class SignalHub : ISignalSink, IDisposable
{
    private static readonly byte[] One = [1];
    private readonly TcpListener listener;
    private readonly ConcurrentDictionary<int, Socket> clients = new();
    private readonly CancellationTokenSource stopping = new();
    private int nextId;

    public SignalHub(IPAddress address)
    {
        listener = new TcpListener(address, 0);
        listener.Start();
        Address = (IPEndPoint)listener.LocalEndpoint;
        _ = AcceptAsync();
    }

    public IPEndPoint Address { get; }

    /// <summary>The address as the endpoint map carries it: <c>tcp://host:port</c>.</summary>
    public string Uri => $"tcp://{(Address.AddressFamily == AddressFamily.InterNetworkV6 ? $"[{Address.Address}]" : Address.Address.ToString())}:{Address.Port}";

    public void Signal(int id)
    {
        if (clients.TryGetValue(id, out Socket? socket))
        {
            lock (socket)
            {
                socket.Send(One);
            }
        }
    }

    public void Dispose()
    {
        stopping.Cancel();
        listener.Stop();
        foreach (Socket socket in clients.Values)
        {
            socket.Dispose();
        }

        stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        try
        {
            while (!stopping.IsCancellationRequested)
            {
                Socket socket = await listener.AcceptSocketAsync(stopping.Token);
                socket.NoDelay = true;
                int id = Interlocked.Increment(ref nextId);
                byte[] idBytes = new byte[4];
                BinaryPrimitives.WriteInt32LittleEndian(idBytes, id);
                clients[id] = socket;
                socket.Send(idBytes);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
        {
            // Stopped.
        }
    }
}

/// <summary>The client's end of a <see cref="SignalHub"/> connection: its id, and a blocking wait for the next signal.</summary>
public sealed class SignalReceiver : IDisposable
{
    private readonly Socket socket;
    private readonly byte[] one = new byte[1];

    public SignalReceiver(string uri)
    {
        var address = new Uri(uri);
        socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        socket.Connect(address.Host.Trim('[', ']'), address.Port);
        byte[] id = new byte[4];
        int got = 0;
        while (got < 4)
        {
            int read = socket.Receive(id, got, 4 - got, SocketFlags.None);
            got += read > 0 ? read : throw new IOException("The signal channel closed before giving an id.");
        }

        Id = BinaryPrimitives.ReadInt32LittleEndian(id);
        socket.ReceiveTimeout = (int)TimeSpan.FromMinutes(2).TotalMilliseconds;
    }

    public int Id { get; }

    /// <summary>Blocks until the service signals receipt of this client's one-way call.</summary>
    public void Wait()
    {
        if (socket.Receive(one, 0, 1, SocketFlags.None) != 1)
        {
            throw new IOException("The signal channel closed.");
        }
    }

    public void Dispose() => socket.Dispose();
}
