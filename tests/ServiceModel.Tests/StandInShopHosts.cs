using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.Integration.Tests;
using Surrogate.StandInHost;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The suite's host on the stand-in SOAP host (tests/StandInHost), which serves every endpoint with the same
/// System.ServiceModel binding the client uses. Clients dial a counting relay over TCP, or over a Unix domain socket
/// for the hosts that serve HTTP on one.
/// </summary>
public abstract class StandInShopHost : ShopHost
{
    protected abstract bool IsNetTcp { get; }

    /// <summary>Whether clients reach the HTTP endpoints over the host's Unix domain socket instead of TCP.</summary>
    protected virtual bool OverUnixSocket => false;

    protected override async Task<IShopServer> StartServerAsync()
    {
        string? socketPath = OverUnixSocket ? UnixSocketHttp.NewPath() : null;
        SoapServiceHost host = await SoapServiceHost.StartAsync(b =>
        {
            b.HttpUnixSocketPath = socketPath;
            b.AddService<IShop>(Shop).AddService<IShopOld>(Shop).AddService<IShopOneOperation>(new OneOperationShopService())
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
        return new StandInServer(host, socketPath);
    }

    private void Add<TContract>(SoapServiceHostBuilder builder, string path, bool large)
        where TContract : class
    {
        if (IsNetTcp)
        {
            builder.AddNetTcpEndpoint<TContract>(path, CreateBinding(large), ApplyPayloadOptions);
        }
        else
        {
            builder.AddHttpEndpoint<TContract>(path, CreateBinding(large), ApplyPayloadOptions);
        }
    }

    private sealed class StandInServer(SoapServiceHost host, string? socketPath) : IShopServer
    {
        public Uri GetEndpointAddress(string path) => host.GetEndpointAddress(path);

        public ICountingRelay CreateRelay() => socketPath is null
            ? new CountingProxy(host.GetEndpointAddress(New).Port)
            : new CountingUnixSocketRelay(socketPath);

        public ValueTask DisposeAsync() => host.DisposeAsync();
    }
}

public class NetTcpShopHost : StandInShopHost
{
    public override string TransportName => "net.tcp binary";

    public override bool QuotaErrorNamesTheSetting => false;

    public override bool HasSession => TransferMode == TransferMode.Buffered;

    protected override bool IsNetTcp => true;

    protected virtual TransferMode TransferMode => TransferMode.Buffered;

    /// <summary>
    /// With 64 KB connection buffers, the cure docs/wcf.md gives users: the client sizes its socket buffers by them,
    /// and with the default 8 KB a large message over loopback advances on delayed-ACK timers (a 2 MB echo took 14 s).
    /// </summary>
    public override Binding CreateBinding(bool large)
    {
        var binding = new NetTcpBinding(SecurityMode.None) { TransferMode = TransferMode };
        if (large)
        {
            RaiseQuotas(binding);
        }

        return SurrogateBindings.WithConnectionBufferSize(binding);
    }
}

/// <summary>net.tcp with TransferMode.Streamed: no session, messages framed as unsized envelopes.</summary>
public sealed class NetTcpStreamedShopHost : NetTcpShopHost
{
    public override string TransportName => "net.tcp binary, streamed";

    protected override TransferMode TransferMode => TransferMode.Streamed;
}

public class BasicHttpShopHost : StandInShopHost
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

public class BinaryHttpShopHost : StandInShopHost
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
