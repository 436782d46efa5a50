using System.ServiceModel;

namespace Surrogate.Compression;

/// <summary>
/// A received compressed message could not be read: it is not a compressed frame (the peer has a plain encoder), it
/// is truncated or corrupt, or it decompresses to more than the decompressed-size limit. A <see cref="ProtocolException"/>,
/// so a WCF client sees it as the CommunicationException of the failed call.
/// </summary>
public class MessageCompressionException : ProtocolException
{
    /// <summary>Creates the exception.</summary>
    public MessageCompressionException()
        : base("A compressed message could not be read.")
    {
    }

    /// <summary>Creates the exception with a message that says what was wrong.</summary>
    public MessageCompressionException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a message and the codec's own error.</summary>
    public MessageCompressionException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
