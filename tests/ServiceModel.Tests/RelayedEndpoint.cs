using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using Surrogate.StandInHost;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// One SoapHost endpoint behind a counting relay on 127.0.0.1, for the tests that need an endpoint of their own
/// (options set in code, transfer modes): real sockets, the real WCF client.
/// </summary>
public sealed class RelayedEndpoint : IAsyncDisposable
{
    private const string Path = "/endpoint";
    private readonly SoapServiceHost _host;

    private RelayedEndpoint(SoapServiceHost host, Binding binding)
    {
        _host = host;
        Binding = binding;
        Relay = new CountingProxy(host.GetEndpointAddress(Path).Port);
    }

    /// <summary>The binding of both ends.</summary>
    public Binding Binding { get; }

    public CountingProxy Relay { get; }

    /// <summary>Starts a host serving <paramref name="service"/>; <paramref name="configure"/> may change the service's endpoint description.</summary>
    public static async Task<RelayedEndpoint> StartAsync<TContract>(TContract service, Binding binding, Action<ServiceEndpoint>? configure = null)
        where TContract : class
    {
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = binding.CloseTimeout = TimeSpan.FromSeconds(15);
        SoapServiceHost host = await SoapServiceHost.StartAsync(b =>
        {
            b.AddService(service);
            if (binding.Scheme == "net.tcp")
            {
                b.AddNetTcpEndpoint<TContract>(Path, binding, configure ?? (_ => { }));
            }
            else
            {
                b.AddHttpEndpoint<TContract>(Path, binding, configure ?? (_ => { }));
            }
        });
        return new RelayedEndpoint(host, binding);
    }

    /// <summary>A channel of <typeparamref name="TClient"/> through the relay; <paramref name="configure"/> may change the client's endpoint.</summary>
    public TClient Open<TClient>(Action<ServiceEndpoint>? configure = null)
    {
        var factory = new ChannelFactory<TClient>(Binding, new EndpointAddress(_host.GetEndpointAddress(Path)));
        Relay.Route(factory.Endpoint);
        configure?.Invoke(factory.Endpoint);
        return factory.CreateChannel();
    }

    public async ValueTask DisposeAsync()
    {
        await Relay.DisposeAsync();
        await _host.DisposeAsync();
    }
}
