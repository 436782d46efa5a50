using CoreWCF.Channels;
using CoreWCF.Description;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Surrogate.Compression;
using Surrogate.Compression.Framing;
using Surrogate.CoreWCF.Compression;
using Surrogate.ServiceModel;

namespace Surrogate.CoreWCF;

/// <summary>
/// The CoreWCF service's lines: <see cref="AddDataSetSurrogate"/> makes <see cref="DataSetSurrogateAttribute"/> on a
/// shared contract take effect (CoreWCF applies only its own behavior interfaces, so the attribute alone does nothing
/// there), and <see cref="WithCompression"/> gives a binding the compressing message encoder, the twin of the client's
/// <see cref="MessageCompression.WithCompression"/> (package DataSetSurrogate.Compression).
/// </summary>
/// <example>
/// <code>
/// builder.Services.AddServiceModelServices().AddDataSetSurrogate();
/// builder.AddServiceEndpoint&lt;ShopService, IShop&gt;(new NetTcpBinding(SecurityMode.None).WithCompression(), "/shop");
/// </code>
/// </example>
public static class CoreWcfSurrogateExtensions
{
    /// <summary>
    /// Registers the service behavior that applies <see cref="DataSetSurrogateAttribute"/> to every CoreWCF service of
    /// this host (CoreWCF applies service behaviors registered for dependency injection to every service): it reads the
    /// attribute from each endpoint's contract interface and operation methods and installs the same provider,
    /// negotiation and telemetry as on System.ServiceModel. Calling it again with the same options changes nothing.
    /// </summary>
    /// <param name="services">The host's services.</param>
    /// <param name="options">
    /// Codec limits for every operation with the attribute on this host (an attribute cannot carry them);
    /// <see cref="SurrogateOptions.Default"/> when null.
    /// </param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="InvalidOperationException">It was called before with other options.</exception>
    public static IServiceCollection AddDataSetSurrogate(this IServiceCollection services, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        SurrogateOptions effective = options ?? SurrogateOptions.Default;
        SurrogateServiceBehavior? registered = services
            .Where(d => d.ServiceType == typeof(IServiceBehavior))
            .Select(d => d.ImplementationInstance)
            .OfType<SurrogateServiceBehavior>()
            .FirstOrDefault();
        if (registered is not null)
        {
            return registered.Options == effective
                ? services
                : throw new InvalidOperationException("AddDataSetSurrogate was already called with other options; call it once per host.");
        }

        services.TryAddEnumerable(ServiceDescriptor.Singleton<IServiceBehavior>(new SurrogateServiceBehavior(effective)));
        return services;
    }

    /// <summary>
    /// <paramref name="binding"/> as a <see cref="CustomBinding"/> (same elements, quotas and timeouts) whose encoding
    /// element compresses what the original one encodes. Both ends read every codec; each sends with its own options
    /// (docs/compression.md).
    /// </summary>
    /// <param name="binding">A CoreWCF binding with a binary or text encoding element; it is not changed.</param>
    /// <param name="options">
    /// Policy (a fixed codec and level, <see cref="CompressionOptions.Adaptive"/>, <see cref="CompressionOptions.Rules2011"/>),
    /// size floor and limit; <see cref="CompressionOptions.Default"/> when null.
    /// </param>
    /// <returns>A new binding.</returns>
    /// <exception cref="ArgumentException">
    /// The options are out of range, the binding has no encoding element, is already compressing, or uses WCF's own
    /// <c>CompressionFormat</c>.
    /// </exception>
    public static CustomBinding WithCompression(this Binding binding, CompressionOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(binding);
        var custom = new CustomBinding(binding);
        int index = -1;
        for (int i = 0; i < custom.Elements.Count && index < 0; i++)
        {
            index = custom.Elements[i] switch
            {
                CoreWcfCompressingEncodingBindingElement => throw new ArgumentException($"Binding '{binding.Name}' is already compressing.", nameof(binding)),
                MessageEncodingBindingElement => i,
                _ => -1,
            };
        }

        if (index < 0)
        {
            throw new ArgumentException($"Binding '{binding.Name}' has no message encoding binding element.", nameof(binding));
        }

        var encoding = (MessageEncodingBindingElement)custom.Elements[index];
        if (encoding is BinaryMessageEncodingBindingElement { CompressionFormat: not CompressionFormat.None } binary)
        {
            throw new ArgumentException(
                $"Binding '{binding.Name}' already compresses with CompressionFormat.{binary.CompressionFormat}; use one compression, not both.", nameof(binding));
        }

        TransportBindingElement transport = custom.Elements.Find<TransportBindingElement>()
            ?? throw new ArgumentException($"Binding '{binding.Name}' has no transport binding element.", nameof(binding));
        custom.Elements[index] = new CoreWcfCompressingEncodingBindingElement(
            encoding, CompressionSettings.From(options ?? CompressionOptions.Default, transport.MaxReceivedMessageSize));
        return custom;
    }
}
