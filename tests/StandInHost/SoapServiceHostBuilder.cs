using System.Net;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Surrogate.StandInHost;

/// <summary>
/// Configures a <see cref="SoapServiceHost"/>: the service implementation of each contract, its endpoints, and the
/// address and ports to listen on (loopback unless told otherwise). Passed to <see cref="SoapServiceHost.StartAsync(Action{SoapServiceHostBuilder}, CancellationToken)"/>.
/// </summary>
public sealed class SoapServiceHostBuilder
{
    private readonly Dictionary<Type, ServiceInstances> services = [];
    private readonly List<EndpointRegistration> endpoints = [];

    internal SoapServiceHostBuilder()
    {
    }

    /// <summary>
    /// The local IPv4 or IPv6 address every TCP listener (net.tcp and HTTP) binds to, and that the endpoint addresses
    /// carry; <see cref="IPAddress.Loopback"/> (127.0.0.1) by default.
    /// </summary>
    public IPAddress ListenAddress { get; set => field = value ?? throw new ArgumentNullException(nameof(value)); } = IPAddress.Loopback;

    /// <summary>The TCP port for every net.tcp endpoint; 0 (the default) picks a free port.</summary>
    public int NetTcpPort { get; set; }

    /// <summary>The TCP port for every HTTP endpoint; 0 (the default) picks a free port.</summary>
    public int HttpPort { get; set; }

    /// <summary>
    /// A Unix domain socket path on which every HTTP endpoint is served as well (Kestrel's Unix socket listener), or
    /// null (the default) for TCP only. The file must not exist yet; the host deletes it when disposed.
    /// </summary>
    public string? HttpUnixSocketPath { get; set; }

    /// <summary>
    /// Whether faults for unexpected exceptions carry the exception's type and message (as WCF's
    /// <c>IncludeExceptionDetailInFaults</c>). Off by default: the caller then sees a generic internal-error reason.
    /// </summary>
    public bool IncludeExceptionDetailInFaults { get; set; }

    /// <summary>Where the host logs transport problems (rejected preambles, oversized messages, reply failures).</summary>
    public ILoggerFactory LoggerFactory { get; set; } = NullLoggerFactory.Instance;

    internal IReadOnlyList<EndpointRegistration> Endpoints => endpoints;

    /// <summary>Serves <typeparamref name="TContract"/> with one instance shared by all calls (it must be thread-safe).</summary>
    public SoapServiceHostBuilder AddService<TContract>(TContract instance)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(instance);
        services[typeof(TContract)] = new ServiceInstances(() => instance, PerCall: false);
        return this;
    }

    /// <summary>
    /// Serves <typeparamref name="TContract"/> with a new instance from <paramref name="factory"/> per call; the host
    /// disposes each instance (<see cref="IAsyncDisposable"/> or <see cref="IDisposable"/>) after its call.
    /// </summary>
    public SoapServiceHostBuilder AddService<TContract>(Func<TContract> factory)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(factory);
        services[typeof(TContract)] = new ServiceInstances(factory, PerCall: true);
        return this;
    }

    /// <summary>
    /// Adds a net.tcp endpoint (the .NET Message Framing protocol) at <paramref name="path"/>. The binding must have no
    /// transport security (e.g. <c>new NetTcpBinding(SecurityMode.None)</c>). Buffered transfer is served as a duplex
    /// session with the encoder's session encoder (one per connection; binary session encoding for NetTcpBinding),
    /// streamed transfer as singleton-unsized exchanges with its plain encoder. The binding's encoder, MaxReceivedMessageSize
    /// and reader quotas apply; a client whose mode or encoding differs gets a framing fault at once.
    /// </summary>
    public SoapServiceHostBuilder AddNetTcpEndpoint<TContract>(string path, Binding binding)
        where TContract : class =>
        AddEndpoint(typeof(TContract), path, binding, "net.tcp", null);

    /// <summary>
    /// Adds a net.tcp endpoint as <see cref="AddNetTcpEndpoint{TContract}(string, Binding)"/> does, and lets
    /// <paramref name="configure"/> change its description (contract, operation and endpoint behaviors) before the
    /// host applies them, as CoreWCF's <c>AddServiceEndpoint</c> overload with an <c>Action&lt;ServiceEndpoint&gt;</c> does.
    /// </summary>
    public SoapServiceHostBuilder AddNetTcpEndpoint<TContract>(string path, Binding binding, Action<ServiceEndpoint> configure)
        where TContract : class =>
        AddEndpoint(typeof(TContract), path, binding, "net.tcp", configure ?? throw new ArgumentNullException(nameof(configure)));

    /// <summary>
    /// Adds an HTTP endpoint at <paramref name="path"/>: <c>BasicHttpBinding</c> (text SOAP 1.1), or a
    /// <c>CustomBinding</c> of an encoding element and <c>HttpTransportBindingElement</c> (e.g. binary encoding).
    /// Clients of any transfer mode are served: a streamed request arrives chunked and is read whole (up to
    /// MaxReceivedMessageSize), and every reply is written whole with a Content-Length, which streamed clients read
    /// as a stream.
    /// </summary>
    public SoapServiceHostBuilder AddHttpEndpoint<TContract>(string path, Binding binding)
        where TContract : class =>
        AddEndpoint(typeof(TContract), path, binding, "http", null);

    /// <summary>
    /// Adds an HTTP endpoint as <see cref="AddHttpEndpoint{TContract}(string, Binding)"/> does, and lets
    /// <paramref name="configure"/> change its description before the host applies its behaviors.
    /// </summary>
    public SoapServiceHostBuilder AddHttpEndpoint<TContract>(string path, Binding binding, Action<ServiceEndpoint> configure)
        where TContract : class =>
        AddEndpoint(typeof(TContract), path, binding, "http", configure ?? throw new ArgumentNullException(nameof(configure)));

    internal ServiceInstances ServiceFor(Type contract) =>
        services.TryGetValue(contract, out ServiceInstances? instances)
            ? instances
            : throw new InvalidOperationException($"No service was added for contract '{contract.FullName}'; call AddService first.");

    private SoapServiceHostBuilder AddEndpoint(Type contract, string path, Binding binding, string scheme, Action<ServiceEndpoint>? configure)
    {
        ArgumentNullException.ThrowIfNull(binding);
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        if (!string.Equals(binding.Scheme, scheme, StringComparison.Ordinal))
        {
            throw new ArgumentException($"Binding '{binding.Name}' uses scheme '{binding.Scheme}', not '{scheme}'.", nameof(binding));
        }

        string normalized = path.StartsWith('/') ? path : "/" + path;
        if (endpoints.Any(e => e.Scheme == scheme && string.Equals(e.Path, normalized, StringComparison.OrdinalIgnoreCase)))
        {
            throw new ArgumentException($"A {scheme} endpoint at '{normalized}' already exists.", nameof(path));
        }

        endpoints.Add(new EndpointRegistration(contract, normalized, binding, scheme, configure));
        return this;
    }

    internal sealed record ServiceInstances(Func<object> Create, bool PerCall);

    internal sealed record EndpointRegistration(Type Contract, string Path, Binding Binding, string Scheme, Action<ServiceEndpoint>? Configure);
}
