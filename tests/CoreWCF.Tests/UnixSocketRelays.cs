namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// Counting relays in front of Unix socket endpoints whose clients dial the socket file their address names (net.uds):
/// each host socket file is renamed (the listening socket keeps working under its new name) and a relay listens at its
/// old path, so the client's address, and the via its framing preamble carries, still name the endpoint the service
/// knows. All relays record into one <see cref="WireRecording"/>.
/// </summary>
public sealed class UnixSocketRelays : ICountingRelay
{
    private const string HostSuffix = ".host";
    private readonly List<CountingUnixSocketRelay> _relays = [];
    private readonly WireRecording _recording = new();

    private UnixSocketRelays()
    {
    }

    public byte[] Sent => _recording.Sent;

    public byte[] Received => _recording.Received;

    public static UnixSocketRelays TakeOver(IEnumerable<string> socketPaths)
    {
        var relays = new UnixSocketRelays();
        foreach (string path in socketPaths)
        {
            File.Move(path, path + HostSuffix);
            relays._relays.Add(new CountingUnixSocketRelay(path + HostSuffix, path, relays._recording));
        }

        return relays;
    }

    public void Reset() => _recording.Reset();

    /// <summary>Nothing to change: the client's address already names the relay's socket.</summary>
    public void Route(System.ServiceModel.Description.ServiceEndpoint endpoint)
    {
    }

    public async ValueTask DisposeAsync()
    {
        foreach (CountingUnixSocketRelay relay in _relays)
        {
            await relay.DisposeAsync();
            File.Delete(relay.TargetPath);
        }
    }
}
