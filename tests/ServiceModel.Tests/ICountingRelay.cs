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
