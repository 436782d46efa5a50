using CoreWCF.Channels;
using Surrogate.Compression;
using Surrogate.Compression.Framing;

namespace Surrogate.CoreWCF.Compression;

/// <summary>
/// Compressing message encoders for CoreWCF services, in one line:
/// <c>new NetTcpBinding(SecurityMode.None).WithCompression()</c>, the service's twin of the client's
/// <see cref="MessageCompression.WithCompression"/> (package DataSetSurrogate.Compression). Both ends read every
/// codec; each sends with its own options. See docs/compression.md.
/// </summary>
public static class CoreWcfMessageCompression
{
    /// <summary>
    /// <paramref name="binding"/> as a <see cref="CustomBinding"/> (same elements, quotas and timeouts) whose encoding
    /// element compresses what the original one encodes.
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
