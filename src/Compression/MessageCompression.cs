using System.ServiceModel.Channels;
using Surrogate.Compression.Framing;
using Surrogate.Compression.ServiceModel;

namespace Surrogate.Compression;

/// <summary>
/// Compressing message encoders for WCF clients (System.ServiceModel), in one line:
/// <c>new NetTcpBinding(SecurityMode.None).WithCompression()</c>. Each message travels in a small frame that names its
/// codec, so small and incompressible messages go raw and a receiver reads any codec; received messages are refused
/// past a decompressed-size limit. The service needs the same on its binding (CoreWCF: the DataSetSurrogate.CoreWCF
/// package's <c>WithCompression</c>). See docs/compression.md.
/// </summary>
public static class MessageCompression
{
    /// <summary>
    /// <paramref name="binding"/> as a <see cref="CustomBinding"/> (same elements, quotas and timeouts) whose encoding
    /// element compresses what the original one encodes.
    /// </summary>
    /// <param name="binding">A binding with a binary or text encoding element; it is not changed.</param>
    /// <param name="options">
    /// Policy (a fixed codec and level, <see cref="CompressionOptions.Adaptive"/>, <see cref="CompressionOptions.Rules2011"/>),
    /// size floor and limit; <see cref="CompressionOptions.Default"/> when null.
    /// </param>
    /// <returns>A new binding.</returns>
    /// <exception cref="ArgumentException">
    /// The options are out of range, the binding has no encoding element, is already compressing, or uses WCF's own
    /// <c>CompressionFormat</c> (one compression per binding).
    /// </exception>
    public static CustomBinding WithCompression(this Binding binding, CompressionOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(binding);
        var custom = new CustomBinding(binding);
        int index = FindEncoding(custom.Elements, binding.Name);
        var encoding = (MessageEncodingBindingElement)custom.Elements[index];
        if (encoding is BinaryMessageEncodingBindingElement { CompressionFormat: not CompressionFormat.None } binary)
        {
            throw new ArgumentException(
                $"Binding '{binding.Name}' already compresses with CompressionFormat.{binary.CompressionFormat}; use one compression, not both.", nameof(binding));
        }

        TransportBindingElement transport = custom.Elements.Find<TransportBindingElement>()
            ?? throw new ArgumentException($"Binding '{binding.Name}' has no transport binding element.", nameof(binding));
        custom.Elements[index] = new CompressingEncodingBindingElement(
            encoding, CompressionSettings.From(options ?? CompressionOptions.Default, transport.MaxReceivedMessageSize));
        return custom;
    }

    private static int FindEncoding(BindingElementCollection elements, string name)
    {
        for (int i = 0; i < elements.Count; i++)
        {
            switch (elements[i])
            {
                case CompressingEncodingBindingElement:
                    throw new ArgumentException($"Binding '{name}' is already compressing.", nameof(elements));
                case MessageEncodingBindingElement:
                    return i;
            }
        }

        throw new ArgumentException($"Binding '{name}' has no message encoding binding element.", nameof(elements));
    }
}
