using System.ServiceModel.Channels;
using Surrogate.StandInHost.Dispatch;

namespace Surrogate.StandInHost.Transport;

/// <summary>One hosted endpoint: its path, binding-derived encoder and limits, and its dispatcher.</summary>
internal sealed class SoapEndpoint
{
    public SoapEndpoint(string path, Binding binding, ContractDispatcher dispatcher)
    {
        Path = path;
        Dispatcher = dispatcher;
        BindingElementCollection elements = binding.CreateBindingElements();
        TransportBindingElement transport = elements.Find<TransportBindingElement>()
            ?? throw new ArgumentException($"Binding '{binding.Name}' has no transport binding element.", nameof(binding));
        MessageEncodingBindingElement encoding = elements.Find<MessageEncodingBindingElement>()
            ?? throw new ArgumentException($"Binding '{binding.Name}' has no message encoding binding element.", nameof(binding));
        EncoderFactory = encoding.CreateMessageEncoderFactory();
        MessageVersion = encoding.MessageVersion;
        MaxReceivedMessageSize = (int)Math.Min(transport.MaxReceivedMessageSize, int.MaxValue);
        Scheme = transport.Scheme;
        IsStreamed = transport is ConnectionOrientedTransportBindingElement connection && connection.TransferMode != System.ServiceModel.TransferMode.Buffered;
    }

    /// <summary>The endpoint's absolute path, starting with '/'.</summary>
    public string Path { get; }

    /// <summary>The transport scheme of the binding ("net.tcp", "http").</summary>
    public string Scheme { get; }

    /// <summary>Whether the binding streams messages on a connection-oriented transport (net.tcp singleton mode).</summary>
    public bool IsStreamed { get; }

    /// <summary>The encoder factory of the binding's encoding element (its reader quotas included).</summary>
    public MessageEncoderFactory EncoderFactory { get; }

    /// <summary>The binding's SOAP and addressing version.</summary>
    public MessageVersion MessageVersion { get; }

    /// <summary>The transport's MaxReceivedMessageSize, capped to a buffer's size.</summary>
    public int MaxReceivedMessageSize { get; }

    /// <summary>The endpoint's dispatcher.</summary>
    public ContractDispatcher Dispatcher { get; }
}
