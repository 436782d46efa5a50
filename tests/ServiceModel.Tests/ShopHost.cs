using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.Integration.Tests;
using Surrogate.SoapHost;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// One SoapHost per transport with every endpoint the suite needs: the new and the old contract, a second
/// endpoint of the new contract (the behavior applies once per endpoint), large-quota variants, and a contract with
/// the attribute on one operation only. Clients dial a counting relay in front of it: over TCP, or over a Unix domain
/// socket for the hosts that serve HTTP on one.
/// </summary>
public abstract class ShopHost : IAsyncLifetime
{
    public const string New = "/new";
    public const string NewSecond = "/new2";
    public const string Old = "/old";
    public const string NewLarge = "/new-large";
    public const string OldLarge = "/old-large";
    public const string OneOperation = "/one-operation";

    private const int LargeMessage = 64 << 20;

    private SoapServiceHost? _host;
    private ICountingRelay? _proxy;

    public SoapServiceHost Host => _host ?? throw new InvalidOperationException("Not started.");

    /// <summary>The relay every client of the suite dials, so tests see the bytes on the wire.</summary>
    public ICountingRelay Proxy => _proxy ?? throw new InvalidOperationException("Not started.");

    public abstract string TransportName { get; }

    /// <summary>
    /// Whether the WCF client's error for a reply over MaxReceivedMessageSize names that setting. Over HTTP it does;
    /// the net.tcp client drops the reply and reports "The server did not provide a meaningful reply".
    /// </summary>
    public virtual bool QuotaErrorNamesTheSetting => true;

    protected abstract bool IsNetTcp { get; }

    /// <summary>Whether clients reach the HTTP endpoints over the host's Unix domain socket instead of TCP.</summary>
    protected virtual bool OverUnixSocket => false;

    /// <summary>The binding of both ends; <paramref name="large"/> raises the message size quotas only.</summary>
    public abstract Binding CreateBinding(bool large);

    public async Task InitializeAsync()
    {
        var service = new ShopService();
        string? socketPath = OverUnixSocket ? UnixSocketHttp.NewPath() : null;
        _host = await SoapServiceHost.StartAsync(b =>
        {
            b.HttpUnixSocketPath = socketPath;
            b.AddService<IShop>(service).AddService<IShopOld>(service).AddService<IShopOneOperation>(new OneOperationShopService());
            Add<IShop>(b, New, large: false);
            Add<IShop>(b, NewSecond, large: false);
            Add<IShopOld>(b, Old, large: false);
            Add<IShop>(b, NewLarge, large: true);
            Add<IShopOld>(b, OldLarge, large: true);
            Add<IShopOneOperation>(b, OneOperation, large: false);
        });
        _proxy = socketPath is null
            ? new CountingProxy(_host.GetEndpointAddress(New).Port)
            : new CountingUnixSocketRelay(socketPath);
    }

    public async Task DisposeAsync()
    {
        if (_proxy is not null)
        {
            await _proxy.DisposeAsync();
        }

        if (_host is not null)
        {
            await _host.DisposeAsync();
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
        var factory = new ChannelFactory<TContract>(binding, new EndpointAddress(Host.GetEndpointAddress(path)));
        Proxy.Route(factory.Endpoint);
        return factory;
    }

    private void Add<TContract>(SoapServiceHostBuilder builder, string path, bool large)
        where TContract : class
    {
        if (IsNetTcp)
        {
            builder.AddNetTcpEndpoint<TContract>(path, CreateBinding(large));
        }
        else
        {
            builder.AddHttpEndpoint<TContract>(path, CreateBinding(large));
        }
    }

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

public sealed class NetTcpShopHost : ShopHost
{
    public override string TransportName => "net.tcp binary";

    public override bool QuotaErrorNamesTheSetting => false;

    protected override bool IsNetTcp => true;

    public override Binding CreateBinding(bool large)
    {
        var binding = new NetTcpBinding(SecurityMode.None);
        if (large)
        {
            RaiseQuotas(binding);
        }

        return binding;
    }
}

public class BasicHttpShopHost : ShopHost
{
    public override string TransportName => "BasicHttp text";

    protected override bool IsNetTcp => false;

    public override Binding CreateBinding(bool large)
    {
        var binding = new BasicHttpBinding();
        if (large)
        {
            RaiseQuotas(binding);
        }

        return binding;
    }
}

public class BinaryHttpShopHost : ShopHost
{
    public override string TransportName => "binary over HTTP";

    protected override bool IsNetTcp => false;

    public override Binding CreateBinding(bool large)
    {
        var binding = new CustomBinding(new BinaryMessageEncodingBindingElement(), new HttpTransportBindingElement());
        if (large)
        {
            RaiseQuotas(binding);
        }

        return binding;
    }
}

public sealed class UnixSocketBasicHttpShopHost : BasicHttpShopHost
{
    public override string TransportName => "BasicHttp text over a Unix socket";

    protected override bool OverUnixSocket => true;
}

public sealed class UnixSocketBinaryHttpShopHost : BinaryHttpShopHost
{
    public override string TransportName => "binary over HTTP over a Unix socket";

    protected override bool OverUnixSocket => true;
}
