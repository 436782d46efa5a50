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
        if (!Available)
        {
            return (sent, received);
        }

        byte[] info = new byte[256];
        foreach (string link in Directory.EnumerateFileSystemEntries("/proc/self/fd"))
        {
            if (new FileInfo(link).LinkTarget?.StartsWith("socket:", StringComparison.Ordinal) != true
                || !int.TryParse(Path.GetFileName(link), out int fd))
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
                    sent += BinaryPrimitives.ReadInt64LittleEndian(info.AsSpan(BytesAckedOffset));
                    received += BinaryPrimitives.ReadInt64LittleEndian(info.AsSpan(BytesReceivedOffset));
                }
            }
            catch (SocketException)
            {
                // Closed meanwhile, or a socket the runtime cannot wrap (netlink, unix): not one of ours.
            }
        }

        return (sent, received);
    }
}
