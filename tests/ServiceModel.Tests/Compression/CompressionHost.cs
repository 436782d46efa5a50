using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using Surrogate.Compression;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// A service host with an <see cref="IOrderService"/> endpoint per <see cref="CompressionVariant"/>, behind a
/// counting relay; what kind of host (the stand-in host or CoreWCF) and transport is the subclass's.
/// </summary>
public abstract class CompressionHost : IAsyncLifetime
{
    private IShopServer? _server;
    private ICountingRelay? _relay;

    public OrderService Service { get; } = new();

    /// <summary>Where the adaptive and 2011 ends of this host and of its clients record their decisions.</summary>
    public CompressionDecisionLog Log { get; } = new(capacity: 16_384);

    /// <summary>net.tcp (true) or HTTP.</summary>
    public abstract bool IsNetTcp { get; }

    public abstract string HostName { get; }

    /// <summary>
    /// Whether a reply the client's encoder refuses (corrupt, over its limit) fails the call with that error. Over
    /// HTTP it does; a net.tcp session faults instead, and the call reports "did not provide a meaningful reply" or
    /// a faulted channel.
    /// </summary>
    public bool ReadErrorsReachTheCaller => !IsNetTcp;

    /// <summary>
    /// Whether the service's encoder knows which peer a reply goes to, so a measuring service sends raw to one on this
    /// machine: CoreWCF gives each request the connection's remote address; the stand-in host does not.
    /// </summary>
    public virtual bool ServiceKnowsItsPeer => false;

    public IShopServer Server => _server ?? throw new InvalidOperationException("Not started.");

    public ICountingRelay Relay => _relay ?? throw new InvalidOperationException("Not started.");

    /// <summary>The variants this host serves: every one, less streamed ones on HTTP.</summary>
    public IEnumerable<CompressionVariant> Variants => CompressionVariant.All.Where(v => IsNetTcp || !v.Streamed);

    public async Task InitializeAsync()
    {
        _server = await StartAsync([.. Variants]);
        _relay = _server.CreateRelay();
    }

    public async Task DisposeAsync()
    {
        if (_relay is not null)
        {
            await _relay.DisposeAsync();
        }

        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    /// <summary>
    /// A factory whose client is configured as <paramref name="client"/> and dials the endpoint of
    /// <paramref name="endpoint"/> (the same variant by default), through the counting relay or, when given, a via.
    /// </summary>
    public ChannelFactory<IOrderService> CreateFactory(CompressionVariant client, CompressionVariant? endpoint = null, Uri? via = null, TimeSpan? timeout = null)
    {
        Binding binding = client.ClientBinding(IsNetTcp, Log);
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = binding.CloseTimeout = timeout ?? TimeSpan.FromSeconds(30);
        var factory = new ChannelFactory<IOrderService>(binding, new EndpointAddress(Server.GetEndpointAddress((endpoint ?? client).Path)));
        if (via is null)
        {
            Relay.Route(factory.Endpoint);
        }
        else
        {
            factory.Endpoint.EndpointBehaviors.Add(new ViaBehavior(via));
        }

        return factory;
    }

    /// <summary>Sends to <paramref name="via"/> (a relay) while addressing the host's endpoint.</summary>
    private sealed class ViaBehavior(Uri via) : IEndpointBehavior
    {
        public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
        {
        }

        public void ApplyClientBehavior(ServiceEndpoint endpoint, System.ServiceModel.Dispatcher.ClientRuntime clientRuntime) => clientRuntime.Via = via;

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, System.ServiceModel.Dispatcher.EndpointDispatcher endpointDispatcher)
        {
        }

        public void Validate(ServiceEndpoint endpoint)
        {
        }
    }

    /// <summary>Starts the host with an endpoint at each variant's path, configured as that variant.</summary>
    protected abstract Task<IShopServer> StartAsync(IReadOnlyList<CompressionVariant> variants);
}
