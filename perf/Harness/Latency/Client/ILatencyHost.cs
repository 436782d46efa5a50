using System.Net;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>A running latency service: the stand-in host's or CoreWCF's, in its own process or in the client's (InProcess).</summary>
public interface ILatencyHost : IAsyncDisposable
{
    /// <summary>Endpoint keys (<see cref="EndpointKeys"/>) to addresses, plus the signal channel and, with TLS, the certificate's thumbprint.</summary>
    IReadOnlyDictionary<string, string> Endpoints { get; }

    /// <summary>The address of an endpoint started on demand (CoreWCF's net.uds, one host per socket), or null when there is none.</summary>
    Task<string?> OpenAsync(string key);
}

/// <summary>Starts a <see cref="ILatencyHost"/> listening on an address.</summary>
public delegate Task<ILatencyHost> LatencyHostFactory(IPAddress address);
