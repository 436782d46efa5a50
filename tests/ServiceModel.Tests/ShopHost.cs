using System.ServiceModel;
using System.ServiceModel.Description;
using System.ServiceModel.Channels;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// One service host per transport with every endpoint the suite needs: the new and the old contract, a second
/// endpoint of the new contract (the behavior applies once per endpoint), large-quota variants, a contract with the
/// attribute on one operation only, and the placement builds. Clients dial a counting relay in front of it. What kind
/// of host serves (the stand-in host of tests/StandInHost, or CoreWCF) is the subclass's; the suite sees only
/// <see cref="IShopServer"/>.
/// </summary>
public abstract class ShopHost : IAsyncLifetime
{
    public const string New = "/new";
    public const string NewSecond = "/new2";
    public const string Old = "/old";
    public const string NewLarge = "/new-large";
    public const string OldLarge = "/old-large";
    public const string OneOperation = "/one-operation";

    /// <summary>The endpoint serving the placement contract built with the attribute at <paramref name="placement"/>.</summary>
    public static string PlacementPath(Placement placement) => "/placement-" + placement.ToString().ToLowerInvariant();

    protected const int LargeMessage = 64 << 20;

    private IShopServer? _server;
    private ICountingRelay? _proxy;

    /// <summary>The running service host.</summary>
    public IShopServer Server => _server ?? throw new InvalidOperationException("Not started.");

    /// <summary>The relay every client of the suite dials, so tests see the bytes on the wire.</summary>
    public ICountingRelay Proxy => _proxy ?? throw new InvalidOperationException("Not started.");

    public abstract string TransportName { get; }

    /// <summary>The service behind every placement endpoint; it records what each call delivered.</summary>
    public PlacementService Placements { get; } = new();

    /// <summary>The service behind the shop endpoints (new and old contract).</summary>
    public ShopService Shop { get; } = new();

    /// <summary>Whether a channel of this transport has a session (net.tcp buffered), so it learns from its own service.</summary>
    public virtual bool HasSession => false;

    /// <summary>
    /// Whether the WCF client's error for a reply over MaxReceivedMessageSize names that setting. Over HTTP it does;
    /// the net.tcp client drops the reply and reports "The server did not provide a meaningful reply".
    /// </summary>
    public virtual bool QuotaErrorNamesTheSetting => true;

    /// <summary>The binding of both ends; <paramref name="large"/> raises the message size quotas only.</summary>
    public abstract Binding CreateBinding(bool large);

    /// <summary>
    /// The codec options both ends' [DataSetSurrogate] contracts use, or null for the defaults (the suite runs once
    /// with row blocks compressed).
    /// </summary>
    public virtual SurrogateOptions? PayloadOptions => null;

    /// <summary>Gives an endpoint's [DataSetSurrogate] contract <see cref="PayloadOptions"/>, if any.</summary>
    public void ApplyPayloadOptions(ServiceEndpoint endpoint)
    {
        if (PayloadOptions is { } options && endpoint.Contract.ContractBehaviors.TryGetValue(typeof(DataSetSurrogateAttribute), out var behavior) && behavior is DataSetSurrogateAttribute attribute)
        {
            attribute.Options = options;
        }
    }

    public async Task InitializeAsync()
    {
        _server = await StartServerAsync();
        _proxy = _server.CreateRelay();
    }

    public async Task DisposeAsync()
    {
        if (_proxy is not null)
        {
            await _proxy.DisposeAsync();
        }

        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    /// <summary>
    /// A factory for <typeparamref name="TContract"/> at <paramref name="path"/>, dialling through the proxy, with the
    /// quotas of the endpoint unless <paramref name="large"/> says otherwise.
    /// </summary>
    public ChannelFactory<TContract> CreateFactory<TContract>(string path, bool? large = null)
    {
        Binding binding = CreateBinding(large ?? path.EndsWith("-large", StringComparison.Ordinal));
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = binding.CloseTimeout = TimeSpan.FromSeconds(15);
        var factory = new ChannelFactory<TContract>(binding, new EndpointAddress(Server.GetEndpointAddress(path)));
        Proxy.Route(factory.Endpoint);
        ApplyPayloadOptions(factory.Endpoint);
        return factory;
    }

    /// <summary>A channel of <paramref name="contract"/> (a contract interface) at <paramref name="path"/>, through the relay.</summary>
    public object OpenChannel(Type contract, string path)
    {
        object factory = typeof(ShopHost).GetMethod(nameof(CreateFactory))!.MakeGenericMethod(contract).Invoke(this, [path, null])!;
        return factory.GetType().GetMethod("CreateChannel", Type.EmptyTypes)!.Invoke(factory, null)!;
    }

    /// <summary>
    /// Starts the service with every endpoint: <see cref="New"/>, <see cref="NewSecond"/> and <see cref="NewLarge"/>
    /// (<see cref="IShop"/>), <see cref="Old"/> and <see cref="OldLarge"/> (<see cref="IShopOld"/>), both served by
    /// <see cref="Shop"/>; <see cref="OneOperation"/>; and <see cref="PlacementPath"/> of each placement, served by
    /// <see cref="Placements"/>. The large ones have 64 MB message quotas.
    /// </summary>
    protected abstract Task<IShopServer> StartServerAsync();

    protected static void RaiseQuotas(Binding binding)
    {
        switch (binding)
        {
            case NetTcpBinding tcp:
                tcp.MaxReceivedMessageSize = tcp.MaxBufferSize = LargeMessage;
                break;
            case BasicHttpBinding http:
                http.MaxReceivedMessageSize = http.MaxBufferSize = LargeMessage;
                break;
            case CustomBinding custom:
                var transport = custom.Elements.Find<TransportBindingElement>()!;
                transport.MaxReceivedMessageSize = LargeMessage;
                if (transport is HttpTransportBindingElement httpTransport)
                {
                    httpTransport.MaxBufferSize = LargeMessage;
                }

                break;
        }
    }
}

/// <summary>What the suite needs of a running service host, whatever kind it is.</summary>
public interface IShopServer : IAsyncDisposable
{
    /// <summary>The absolute address of the endpoint at <paramref name="path"/>.</summary>
    Uri GetEndpointAddress(string path);

    /// <summary>A counting relay in front of the host, which the suite's clients dial.</summary>
    ICountingRelay CreateRelay();
}
