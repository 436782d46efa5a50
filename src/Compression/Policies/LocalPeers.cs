using System.Net;

namespace Surrogate.Compression.Policies;

/// <summary>
/// Whether a message's peer is on this machine, so its bytes cross memory rather than a link: an address on the
/// loopback network (IPv4-mapped too), or a Unix domain socket or named pipe transport.
/// </summary>
internal static class LocalPeers
{
    /// <summary>A client's view: the address it sends to.</summary>
    public static bool IsLocal(Uri? to) =>
        to is { IsAbsoluteUri: true } && (to.Scheme is "net.uds" or "net.pipe" || to.IsLoopback);

    /// <summary>A service's view: the remote end of the connection a request came on (an IP address as text).</summary>
    public static bool IsLocal(string? remoteAddress) =>
        IPAddress.TryParse(remoteAddress, out IPAddress? address)
        && IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);
}
