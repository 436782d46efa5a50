using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Xml;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Surrogate.CoreWCF;
using Surrogate.Perf.Harness.Latency.Client;
using Surrogate.Perf.Harness.Latency.Contracts;
using Surrogate.Perf.Harness.Latency.Matrix;
using Client = System.ServiceModel;

namespace Surrogate.Perf.CoreWcfServer;

/// <summary>
/// The latency service on CoreWCF: Single, PerSession and PerCall services, each with the data-contract,
/// [DataSetSurrogate], XmlSerializer and Stream contracts on NetTcp (buffered, streamed), BasicHttp (buffered,
/// streamed, and https with a certificate made at start-up), WSHttp and binary HTTP; net.uds endpoints start on
/// demand, one generic host and socket each (CoreWCF.UnixDomainSocket serves one socket per host reliably).
/// </summary>
internal sealed class CoreWcfLatencyHost : ILatencyHost
{
    private static readonly string[] Contracts = ["main", "surrogate", "xml", "stream"];
    private readonly SignalHub hub;
    private readonly WebApplication app;
    private readonly Dictionary<string, string> endpoints;
    private readonly List<(IHost Host, string Socket)> udsHosts = [];

    private CoreWcfLatencyHost(SignalHub hub, WebApplication app, Dictionary<string, string> endpoints)
    {
        this.hub = hub;
        this.app = app;
        this.endpoints = endpoints;
    }

    public IReadOnlyDictionary<string, string> Endpoints => endpoints;

    public static Client.Channels.Binding UnixDomainSocketClient(Transfer transfer) => new Client.UnixDomainSocketBinding(Client.UnixDomainSocketSecurityMode.None)
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = LatencyBindings.Quotas(),
        TransferMode = transfer == Transfer.Streamed ? Client.TransferMode.Streamed : Client.TransferMode.Buffered,
        SendTimeout = LatencyBindings.Timeout,
        ReceiveTimeout = LatencyBindings.Timeout,
        OpenTimeout = LatencyBindings.Timeout,
        CloseTimeout = LatencyBindings.Timeout,
    };

    public static async Task<ILatencyHost> StartAsync(IPAddress address)
    {
        var hub = new SignalHub(address);
        using X509Certificate2 certificate = Certificate(address);
        int tcpPort = FreePort(address), httpPort = FreePort(address), httpsPort = FreePort(address);
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseNetTcp(address, tcpPort);
        var tls = X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pfx), null);
        builder.WebHost.ConfigureKestrel(k =>
        {
            k.Limits.MaxRequestBodySize = null;
            k.AllowSynchronousIO = true; // streamed HTTP on CoreWCF 1.9.1 (docs/wcf.md)
            k.Listen(address, httpPort);
            k.Listen(address, httpsPort, o => o.UseHttps(tls));
        });
        Register(builder.Services, hub);
        WebApplication app = builder.Build();
        string host = address.AddressFamily == AddressFamily.InterNetworkV6 ? $"[{address}]" : address.ToString();
        var endpoints = new Dictionary<string, string>
        {
            [EndpointKeys.Signal] = hub.Uri,
            [EndpointKeys.TlsThumbprint] = tls.GetCertHashString(HashAlgorithmName.SHA256),
        };
        app.UseServiceModel(b =>
        {
            foreach (Instancing instancing in Enum.GetValues<Instancing>())
            {
                foreach (string contract in Contracts)
                {
                    foreach (var (binding, security, transfer) in new[]
                    {
                        (BindingKind.NetTcp, Security.None, Transfer.Buffered), (BindingKind.NetTcp, Security.None, Transfer.Streamed),
                        (BindingKind.BasicHttp, Security.None, Transfer.Buffered), (BindingKind.BasicHttp, Security.None, Transfer.Streamed),
                        (BindingKind.BasicHttp, Security.Transport, Transfer.Buffered), (BindingKind.WSHttp, Security.None, Transfer.Buffered),
                        (BindingKind.BinaryHttp, Security.None, Transfer.Buffered),
                    })
                    {
                        string path = $"/{instancing}/{contract}/{binding}-{security}-{transfer}".ToLowerInvariant();
                        AddEndpoint(b, instancing, contract, ServerBinding(binding, security, transfer), path);
                        string origin = binding == BindingKind.NetTcp ? $"net.tcp://{host}:{tcpPort}"
                            : security == Security.Transport ? $"https://{host}:{httpsPort}" : $"http://{host}:{httpPort}";
                        endpoints[EndpointKeys.For(binding, security, instancing, transfer, contract)] = origin + path;
                    }
                }
            }
        });
        await app.StartAsync();
        return new CoreWcfLatencyHost(hub, app, endpoints);
    }

    public async Task<string?> OpenAsync(string key)
    {
        if (endpoints.TryGetValue(key, out string? known))
        {
            return known;
        }

        string[] parts = key.Split('/');
        if (parts.Length != 5 || parts[0] != "netuds" || parts[1] != "none" || !Contracts.Contains(parts[4])
            || !Enum.TryParse(parts[2], ignoreCase: true, out Instancing instancing) || !Enum.TryParse(parts[3], ignoreCase: true, out Transfer transfer))
        {
            return null;
        }

        string socket = Path.Combine(Path.GetTempPath(), $"dss-lat-{Environment.ProcessId}-{udsHosts.Count}.sock");
        File.Delete(socket);
        IHost uds = new HostBuilder()
            .ConfigureLogging(l => l.ClearProviders())
            .UseUnixDomainSocket(o => o.Listen(new Uri("net.uds://" + socket)))
            .ConfigureServices(s => Register(s, hub))
            .Build();
        uds.UseServiceModel(b => AddEndpoint(b, instancing, parts[4], new UnixDomainSocketBinding(UnixDomainSocketSecurityMode.None)
        {
            MaxReceivedMessageSize = int.MaxValue,
            ReaderQuotas = Quotas(),
            TransferMode = transfer == Transfer.Streamed ? TransferMode.Streamed : TransferMode.Buffered,
        }, "net.uds://" + socket));
        await uds.StartAsync();
        udsHosts.Add((uds, socket));
        return endpoints[key] = "net.uds://" + socket;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var (uds, socket) in udsHosts)
        {
            await uds.StopAsync();
            uds.Dispose();
            File.Delete(socket);
        }

        await app.StopAsync();
        await app.DisposeAsync();
        hub.Dispose();
    }

    private static void Register(IServiceCollection services, SignalHub hub)
    {
        services.AddServiceModelServices();
        services.AddDataSetSurrogate();
        services.AddSingleton<ISignalSink>(hub);
        services.AddSingleton<SingleLatencyService>();
        services.AddTransient<PerSessionLatencyService>();
        services.AddTransient<PerCallLatencyService>();
    }

    private static void AddEndpoint(IServiceBuilder b, Instancing instancing, string contract, Binding binding, string address)
    {
        switch (instancing)
        {
            case Instancing.Single:
                Add<SingleLatencyService>(b, contract, binding, address);
                break;
            case Instancing.PerSession:
                Add<PerSessionLatencyService>(b, contract, binding, address);
                break;
            default:
                Add<PerCallLatencyService>(b, contract, binding, address);
                break;
        }
    }

    private static void Add<TService>(IServiceBuilder b, string contract, Binding binding, string address)
        where TService : LatencyService
    {
        b.AddService<TService>();
        _ = contract switch
        {
            "main" => b.AddServiceEndpoint<TService, ILatencyService>(binding, address),
            "surrogate" => b.AddServiceEndpoint<TService, ISurrogateLatencyService>(binding, address),
            "xml" => b.AddServiceEndpoint<TService, IXmlLatencyService>(binding, address),
            _ => b.AddServiceEndpoint<TService, IStreamLatencyService>(binding, address),
        };
    }

    private static Binding ServerBinding(BindingKind kind, Security security, Transfer transfer) => kind switch
    {
        BindingKind.NetTcp => new NetTcpBinding(SecurityMode.None)
        {
            MaxReceivedMessageSize = int.MaxValue,
            MaxBufferSize = int.MaxValue,
            ReaderQuotas = Quotas(),
            TransferMode = transfer == Transfer.Streamed ? TransferMode.Streamed : TransferMode.Buffered,
        },
        BindingKind.BasicHttp => new BasicHttpBinding(security == Security.Transport ? BasicHttpSecurityMode.Transport : BasicHttpSecurityMode.None)
        {
            MaxReceivedMessageSize = int.MaxValue,
            MaxBufferSize = int.MaxValue,
            ReaderQuotas = Quotas(),
            TransferMode = transfer == Transfer.Streamed ? TransferMode.Streamed : TransferMode.Buffered,
        },
        BindingKind.WSHttp => new WSHttpBinding(SecurityMode.None) { MaxReceivedMessageSize = int.MaxValue, ReaderQuotas = Quotas() },
        _ => new CustomBinding(new BinaryMessageEncodingBindingElement { ReaderQuotas = Quotas() },
            new HttpTransportBindingElement { MaxReceivedMessageSize = int.MaxValue, MaxBufferSize = int.MaxValue }),
    };

    private static XmlDictionaryReaderQuotas Quotas() => new()
    {
        MaxArrayLength = 64 << 20,
        MaxStringContentLength = 64 << 20,
        MaxBytesPerRead = 1 << 20,
        MaxDepth = 64,
        MaxNameTableCharCount = 1 << 20,
    };

    /// <summary>A self-signed certificate for the https endpoints, made now (CertificateRequest), valid for the listen address.</summary>
    private static X509Certificate2 Certificate(IPAddress address)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=latency-harness", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(address);
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], critical: false));
        return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(7));
    }

    private static int FreePort(IPAddress address)
    {
        using var probe = new TcpListener(address, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }
}

/// <summary>One shared instance for every call.</summary>
[ServiceBehavior(InstanceContextMode = InstanceContextMode.Single, ConcurrencyMode = ConcurrencyMode.Multiple)]
internal sealed class SingleLatencyService(ISignalSink signals) : LatencyService(signals);

/// <summary>One instance per client session.</summary>
[ServiceBehavior(InstanceContextMode = InstanceContextMode.PerSession, ConcurrencyMode = ConcurrencyMode.Multiple)]
internal sealed class PerSessionLatencyService(ISignalSink signals) : LatencyService(signals);

/// <summary>A new instance per call.</summary>
[ServiceBehavior(InstanceContextMode = InstanceContextMode.PerCall)]
internal sealed class PerCallLatencyService(ISignalSink signals) : LatencyService(signals);
