using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;

namespace Surrogate.ServiceModel;

/// <summary>
/// Client bindings that avoid the net.tcp loopback stall. The .NET WCF client sizes its socket buffers by
/// the TCP transport's <c>ConnectionBufferSize</c> (8 KB by default); over loopback, where segments are
/// up to 64 KB, the receive window then stays below one segment and a large reply advances on ~200 ms delayed-ACK
/// timers (a 1 MB reply from a CoreWCF service took 12.7 s instead of about 0.1 s; docs/wcf.md, "The loopback stall").
/// It hits plain DataSets as much as the payload, and every same-host deployment (sidecars, tests, a service and its
/// caller on one machine); real networks with 1,500-byte frames are much less affected.
/// </summary>
public static class SurrogateBindings
{
    /// <summary>The connection buffer size this library recommends for net.tcp clients: 64 KB.</summary>
    public const int RecommendedConnectionBufferSize = 64 * 1024;

    /// <summary>The WCF client's default connection buffer size, at or below which a loopback endpoint stalls.</summary>
    internal const int DefaultConnectionBufferSize = 8 * 1024;

    /// <summary>
    /// <paramref name="binding"/> as a <see cref="CustomBinding"/> (same elements, quotas, timeouts and session) whose
    /// TCP transport has <paramref name="connectionBufferSize"/> connection buffers. Use it on the client:
    /// <c>new ChannelFactory&lt;IOrders&gt;(SurrogateBindings.WithConnectionBufferSize(new NetTcpBinding(SecurityMode.None)), address)</c>.
    /// </summary>
    /// <param name="binding">The client's net.tcp binding; it is not changed.</param>
    /// <param name="connectionBufferSize">Bytes; <see cref="RecommendedConnectionBufferSize"/> by default.</param>
    /// <returns>A new binding.</returns>
    public static CustomBinding WithConnectionBufferSize(NetTcpBinding binding, int connectionBufferSize = RecommendedConnectionBufferSize)
    {
        ArgumentNullException.ThrowIfNull(binding);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(connectionBufferSize);
        var custom = new CustomBinding(binding);
        custom.Elements.Find<TcpTransportBindingElement>()!.ConnectionBufferSize = connectionBufferSize;
        return custom;
    }

    /// <summary>
    /// The connection buffer size of a net.tcp client endpoint to a loopback address that keeps the stalling default
    /// (or less), or null when the endpoint is not such a one.
    /// </summary>
    internal static int? StallingConnectionBuffer(ServiceEndpoint endpoint)
    {
        Uri? address = endpoint.Address?.Uri;
        if (address is null || address.Scheme != "net.tcp" || !address.IsLoopback || endpoint.Binding is null)
        {
            return null;
        }

        TcpTransportBindingElement? tcp = endpoint.Binding.CreateBindingElements().Find<TcpTransportBindingElement>();
        return tcp is not null && tcp.ConnectionBufferSize <= DefaultConnectionBufferSize ? tcp.ConnectionBufferSize : null;
    }
}
