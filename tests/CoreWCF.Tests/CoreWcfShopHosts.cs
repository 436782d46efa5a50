using CoreWCF;
using CoreWCF.Channels;
using Microsoft.Extensions.DependencyInjection;
using Surrogate.CoreWCF;
using Client = System.ServiceModel;
using ClientChannels = System.ServiceModel.Channels;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The suite's host on CoreWCF: every endpoint of <see cref="ShopHost"/> on a CoreWCF service with
/// <c>services.AddDataSetSurrogate()</c>, the service binding of the transport on the service and the System.ServiceModel
/// binding of the same transport on the client.
/// </summary>
public abstract class CoreWcfShopHost : ShopHost
{
    private static readonly string[] Paths =
    [
        New, NewSecond, Old, NewLarge, OldLarge, OneOperation,
        PlacementPath(Placement.Contract), PlacementPath(Placement.Operation), PlacementPath(Placement.Absent),
    ];

    /// <summary><c>net.tcp</c>, <c>http</c> or <c>net.uds</c>.</summary>
    protected abstract string Scheme { get; }

    /// <summary>The CoreWCF binding of the service's endpoints; <paramref name="large"/> raises the message size quotas.</summary>
    protected abstract Binding CreateServiceBinding(bool large);

    /// <summary>Whether Kestrel allows synchronous reads and writes of HTTP bodies (off by default, as in ASP.NET Core).</summary>
    protected virtual bool AllowSynchronousIO => false;

    protected override async Task<IShopServer> StartServerAsync()
    {
        CoreWcfServer server = await CoreWcfServer.StartAsync(Scheme, Paths, services =>
        {
            services.AddDataSetSurrogate();
            services.AddSingleton(new NewShopService(Shop));
            services.AddSingleton(new OldShopService(Shop));
            services.AddSingleton(new OneOperationShopService());
            services.AddSingleton(new PlacementOnContractService(Placements));
            services.AddSingleton(new PlacementOnOperationService(Placements));
            services.AddSingleton(new PlacementAbsentService(Placements));
        }, (b, address) =>
        {
            Add<NewShopService, IShop>(b, address, New, large: false);
            Add<NewShopService, IShop>(b, address, NewSecond, large: false);
            Add<NewShopService, IShop>(b, address, NewLarge, large: true);
            Add<OldShopService, IShopOld>(b, address, Old, large: false);
            Add<OldShopService, IShopOld>(b, address, OldLarge, large: true);
            Add<OneOperationShopService, IShopOneOperation>(b, address, OneOperation, large: false);
            Add<PlacementOnContractService, IPlacementOnContract>(b, address, PlacementPath(Placement.Contract), large: false);
            Add<PlacementOnOperationService, IPlacementOnOperation>(b, address, PlacementPath(Placement.Operation), large: false);
            Add<PlacementAbsentService, IPlacementAbsent>(b, address, PlacementPath(Placement.Absent), large: false);
        }, AllowSynchronousIO);
        return new CoreWcfShopServer(server);
    }

    private void Add<TService, TContract>(global::CoreWCF.Configuration.IServiceBuilder builder, Func<string, string> address, string path, bool large)
        where TService : class
    {
        if (address(path) is { Length: > 0 } at)
        {
            builder.AddService<TService>(); // once per service is enough, and again changes nothing
            builder.AddServiceEndpoint<TService, TContract>(CreateServiceBinding(large), at);
        }
    }

    private sealed class CoreWcfShopServer(CoreWcfServer server) : IShopServer
    {
        public Uri GetEndpointAddress(string path) => server.GetEndpointAddress(path);

        public ICountingRelay CreateRelay() => server.Port != 0
            ? new CountingProxy(server.Port)
            : UnixSocketRelays.TakeOver(server.Sockets.Values);

        public ValueTask DisposeAsync() => server.DisposeAsync();
    }
}

public class CoreWcfNetTcpShopHost : CoreWcfShopHost
{
    public override string TransportName => "CoreWCF net.tcp binary";

    public override bool QuotaErrorNamesTheSetting => false;

    public override bool HasSession => TransferMode == TransferMode.Buffered;

    protected override string Scheme => "net.tcp";

    protected virtual TransferMode TransferMode => TransferMode.Buffered;

    /// <summary>The client's NetTcpBinding with 64 KB connection buffers: the default 8 KB stalls on loopback (docs/wcf.md).</summary>
    public override ClientChannels.Binding CreateBinding(bool large)
    {
        var binding = new Client.NetTcpBinding(Client.SecurityMode.None) { TransferMode = (Client.TransferMode)TransferMode };
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = LargeMessage;
        }

        return SurrogateBindings.WithConnectionBufferSize(binding);
    }

    protected override Binding CreateServiceBinding(bool large)
    {
        var binding = new NetTcpBinding(SecurityMode.None) { TransferMode = TransferMode };
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = LargeMessage;
        }

        return binding;
    }
}

public sealed class CoreWcfNetTcpStreamedShopHost : CoreWcfNetTcpShopHost
{
    public override string TransportName => "CoreWCF net.tcp binary, streamed";

    protected override TransferMode TransferMode => TransferMode.Streamed;
}

public class CoreWcfBasicHttpShopHost : CoreWcfShopHost
{
    public override string TransportName => "CoreWCF BasicHttp text";

    protected override string Scheme => "http";

    protected virtual TransferMode TransferMode => TransferMode.Buffered;

    public override ClientChannels.Binding CreateBinding(bool large)
    {
        var binding = new Client.BasicHttpBinding { TransferMode = (Client.TransferMode)TransferMode };
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = LargeMessage;
        }

        return binding;
    }

    protected override Binding CreateServiceBinding(bool large)
    {
        var binding = new BasicHttpBinding { TransferMode = TransferMode };
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = LargeMessage;
        }

        return binding;
    }
}

/// <summary>
/// BasicHttp with TransferMode.Streamed on both ends. CoreWCF 1.9.1 reads a streamed request through an XmlReader that
/// reads Kestrel's request body synchronously, and flushes a streamed reply synchronously; with Kestrel's default
/// (AllowSynchronousIO off) every call is answered 400 Bad Request. A user hosting streamed HTTP endpoints needs the
/// same setting (docs/wcf.md, "Streamed HTTP on CoreWCF").
/// </summary>
public sealed class CoreWcfBasicHttpStreamedShopHost : CoreWcfBasicHttpShopHost
{
    public override string TransportName => "CoreWCF BasicHttp text, streamed";

    protected override TransferMode TransferMode => TransferMode.Streamed;

    protected override bool AllowSynchronousIO => true;
}

public sealed class CoreWcfBinaryHttpShopHost : CoreWcfShopHost
{
    public override string TransportName => "CoreWCF binary over HTTP";

    protected override string Scheme => "http";

    public override ClientChannels.Binding CreateBinding(bool large) => new ClientChannels.CustomBinding(
        new ClientChannels.BinaryMessageEncodingBindingElement(),
        new ClientChannels.HttpTransportBindingElement { MaxReceivedMessageSize = large ? LargeMessage : 65536, MaxBufferSize = large ? LargeMessage : 65536 });

    protected override Binding CreateServiceBinding(bool large) => new CustomBinding(
        new BinaryMessageEncodingBindingElement(),
        new HttpTransportBindingElement { MaxReceivedMessageSize = large ? LargeMessage : 65536, MaxBufferSize = large ? LargeMessage : 65536 });
}

/// <summary>net.uds: CoreWCF.UnixDomainSocket on the service, System.ServiceModel.UnixDomainSocket on the client, security None.</summary>
public sealed class CoreWcfUnixSocketShopHost : CoreWcfShopHost
{
    public override string TransportName => "CoreWCF net.uds binary";

    public override bool QuotaErrorNamesTheSetting => false;

    public override bool HasSession => true;

    protected override string Scheme => "net.uds";

    public override ClientChannels.Binding CreateBinding(bool large)
    {
        var binding = new Client.UnixDomainSocketBinding(Client.UnixDomainSocketSecurityMode.None);
        if (large)
        {
            binding.MaxReceivedMessageSize = binding.MaxBufferSize = LargeMessage;
        }

        return binding;
    }

    protected override Binding CreateServiceBinding(bool large)
    {
        var binding = new UnixDomainSocketBinding(UnixDomainSocketSecurityMode.None);
        if (large)
        {
            binding.MaxReceivedMessageSize = LargeMessage;
        }

        return binding;
    }
}
