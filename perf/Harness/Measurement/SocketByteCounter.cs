using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>
/// Bytes on the wire, read from the kernel: the TCP_INFO counters (bytes_acked, bytes_received) of every TCP socket
/// of this process connected to the server's port, found through /proc/self/fd. Read around the measured window,
/// so they cover exactly the measured calls (framing, envelopes and HTTP headers included) at no cost per call.
/// Linux only; elsewhere the byte columns stay zero and the report says so.
/// </summary>
public static class SocketByteCounter
{
    private const int IpProtoTcp = 6;
    private const int TcpInfo = 11;
    private const int BytesAckedOffset = 120;
    private const int BytesReceivedOffset = 128;

    public static bool Available => OperatingSystem.IsLinux() && Directory.Exists("/proc/self/fd");

    /// <summary>Sum of bytes sent (acknowledged) and received over this process's connections to <paramref name="serverPort"/>.</summary>
    public static (long Sent, long Received) Read(int serverPort)
    {
        long sent = 0, received = 0;
        foreach (var (s, r) in Snapshot(serverPort).Values)
        {
            sent += s;
            received += r;
        }

        return (sent, received);
    }

    /// <summary>The counters of each connection to <paramref name="serverPort"/>, keyed by its socket inode (<c>socket:[n]</c>).</summary>
    public static Dictionary<string, (long Sent, long Received)> Snapshot(int serverPort)
    {
        var sockets = new Dictionary<string, (long Sent, long Received)>(StringComparer.Ordinal);
        if (!Available)
        {
            return sockets;
        }

        byte[] info = new byte[256];
        foreach (string link in Directory.EnumerateFileSystemEntries("/proc/self/fd"))
        {
            string? target = new FileInfo(link).LinkTarget;
            if (target?.StartsWith("socket:", StringComparison.Ordinal) != true || !int.TryParse(Path.GetFileName(link), out int fd))
            {
                continue;
            }

            // A non-owning view of a socket another object owns: disposing it leaves the descriptor open.
            using var handle = new SafeSocketHandle(fd, ownsHandle: false);
            try
            {
                using var socket = new Socket(handle);
                if (socket.ProtocolType != ProtocolType.Tcp || socket.RemoteEndPoint is not IPEndPoint remote || remote.Port != serverPort)
                {
                    continue;
                }

                int length = socket.GetRawSocketOption(IpProtoTcp, TcpInfo, info);
                if (length >= BytesReceivedOffset + 8)
                {
                    sockets[target] = (BinaryPrimitives.ReadInt64LittleEndian(info.AsSpan(BytesAckedOffset)), BinaryPrimitives.ReadInt64LittleEndian(info.AsSpan(BytesReceivedOffset)));
                }
            }
            catch (SocketException)
            {
                // Closed meanwhile, or a socket the runtime cannot wrap (netlink, unix): not one of ours.
            }
        }

        return sockets;
    }

    /// <summary>
    /// Bytes between two snapshots, socket by socket: a connection opened meanwhile counts from zero, one closed
    /// meanwhile is left out (rather than subtracting its whole history from the total).
    /// </summary>
    public static (long Sent, long Received) Delta(Dictionary<string, (long Sent, long Received)> before, Dictionary<string, (long Sent, long Received)> after)
    {
        long sent = 0, received = 0;
        foreach (var (socket, now) in after)
        {
            var then = before.GetValueOrDefault(socket);
            sent += now.Sent - then.Sent;
            received += now.Received - then.Received;
        }

        return (sent, received);
    }
}
