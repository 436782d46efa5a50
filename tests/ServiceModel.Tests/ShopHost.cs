using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.Integration.Tests;
using Surrogate.StandInHost;
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

    /// <summary>The endpoint serving the placement contract built with the attribute at <paramref name="placement"/>.</summary>
    public static string PlacementPath(Placement placement) => "/placement-" + placement.ToString().ToLowerInvariant();

    private const int LargeMessage = 64 << 20;

    private SoapServiceHost? _host;
    private ICountingRelay? _proxy;

    public SoapServiceHost Host => _host ?? throw new InvalidOperationException("Not started.");

    /// <summary>The relay every client of the suite dials, so tests see the bytes on the wire.</summary>
    public ICountingRelay Proxy => _proxy ?? throw new InvalidOperationException("Not started.");

    public abstract string TransportName { get; }

    /// <summary>The service behind every placement endpoint; it records what each call delivered.</summary>
    public PlacementService Placements { get; } = new();

    /// <summary>Whether a channel of this transport has a session (net.tcp buffered), so it learns from its own service.</summary>
    public virtual bool HasSession => false;

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
            b.AddService<IShop>(service).AddService<IShopOld>(service).AddService<IShopOneOperation>(new OneOperationShopService())
                .AddService<IPlacementOnContract>(Placements).AddService<IPlacementOnOperation>(Placements).AddService<IPlacementAbsent>(Placements);
            Add<IShop>(b, New, large: false);
            Add<IShop>(b, NewSecond, large: false);
            Add<IShopOld>(b, Old, large: false);
            Add<IShop>(b, NewLarge, large: true);
            Add<IShopOld>(b, OldLarge, large: true);
            Add<IShopOneOperation>(b, OneOperation, large: false);
            Add<IPlacementOnContract>(b, PlacementPath(Placement.Contract), large: false);
            Add<IPlacementOnOperation>(b, PlacementPath(Placement.Operation), large: false);
            Add<IPlacementAbsent>(b, PlacementPath(Placement.Absent), large: false);
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

    /// <summary>A channel of <paramref name="contract"/> (a contract interface) at <paramref name="path"/>, through the relay.</summary>
    public object OpenChannel(Type contract, string path)
    {
        object factory = typeof(ShopHost).GetMethod(nameof(CreateFactory))!.MakeGenericMethod(contract).Invoke(this, [path, null])!;
        return factory.GetType().GetMethod("CreateChannel", Type.EmptyTypes)!.Invoke(factory, null)!;
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

public class NetTcpShopHost : ShopHost
{
    public override string TransportName => "net.tcp binary";

    public override bool QuotaErrorNamesTheSetting => false;

    public override bool HasSession => TransferMode == TransferMode.Buffered;

    protected override bool IsNetTcp => true;

    protected virtual TransferMode TransferMode => TransferMode.Buffered;

    public override Binding CreateBinding(bool large)
    {
        var binding = new NetTcpBinding(SecurityMode.None) { TransferMode = TransferMode };
        if (large)
        {
            RaiseQuotas(binding);
        }

        return binding;
    }
}

/// <summary>net.tcp with TransferMode.Streamed: no session, messages framed as unsized envelopes.</summary>
public sealed class NetTcpStreamedShopHost : NetTcpShopHost
{
    public override string TransportName => "net.tcp binary, streamed";

    protected override TransferMode TransferMode => TransferMode.Streamed;

    /// <summary>
    /// The same binding with 64 KB connection buffers: the client sizes its socket buffers by them, and with the
    /// default 8 KB a large streamed message over loopback advances on delayed-ACK timers (a 2 MB echo took 14 s).
    /// </summary>
    public override Binding CreateBinding(bool large)
    {
        var binding = new CustomBinding(base.CreateBinding(large));
        binding.Elements.Find<TcpTransportBindingElement>()!.ConnectionBufferSize = 64 * 1024;
        return binding;
    }
}

public class BasicHttpShopHost : ShopHost
{
    public override string TransportName => "BasicHttp text";

    protected override bool IsNetTcp => false;

    protected virtual TransferMode TransferMode => TransferMode.Buffered;

    public override Binding CreateBinding(bool large)
    {
        var binding = new BasicHttpBinding { TransferMode = TransferMode };
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

/// <summary>BasicHttp with TransferMode.Streamed: chunked requests, replies read from the response stream.</summary>
public sealed class BasicHttpStreamedShopHost : BasicHttpShopHost
{
    public override string TransportName => "BasicHttp text, streamed";

    protected override TransferMode TransferMode => TransferMode.Streamed;
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
