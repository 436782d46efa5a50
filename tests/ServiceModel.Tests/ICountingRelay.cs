using System.ServiceModel;
using System.ServiceModel.Description;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The relay between the suite's clients and the host, whatever kind of socket it relays: it keeps the bytes of each
/// direction, so a test sees what actually travelled, and it points a client at itself.
/// </summary>
public interface ICountingRelay : IAsyncDisposable
{
    /// <summary>Bytes client → host since the last <see cref="Reset"/>.</summary>
    byte[] Sent { get; }

    /// <summary>Bytes host → client since the last <see cref="Reset"/>.</summary>
    byte[] Received { get; }

    void Reset();

    /// <summary>Makes a client endpoint addressed to the host dial this relay instead.</summary>
    void Route(ServiceEndpoint endpoint);
}

/// <summary>The TCP relay, <see cref="CountingProxy"/>: a client keeps the host's address with the relay's port.</summary>
public sealed class CountingTcpRelay(int targetPort) : ICountingRelay
{
    private readonly CountingProxy _proxy = new(targetPort);

    public byte[] Sent => _proxy.Sent;

    public byte[] Received => _proxy.Received;

    public void Reset() => _proxy.Reset();

    public void Route(ServiceEndpoint endpoint) =>
        endpoint.Address = new EndpointAddress(new UriBuilder(endpoint.Address.Uri) { Port = _proxy.Port }.Uri);

    public ValueTask DisposeAsync() => _proxy.DisposeAsync();
}
