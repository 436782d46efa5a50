using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.StandInHost.Dispatch;

/// <summary>Builds SOAP fault messages the WCF client turns into <see cref="FaultException"/>.</summary>
/// <remarks>
/// The client package's reference surface has neither <c>MessageFault.CreateFault</c> nor <c>MessageFault.WriteTo</c>,
/// so the fault body is written here, in the SOAP 1.1 or SOAP 1.2 layout of the endpoint's message version.
/// </remarks>
internal static class SoapFaults
{
    private const string DispatcherNamespace = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";
    private const string AddressingNamespace = "http://www.w3.org/2005/08/addressing";

    /// <summary>A fault for an exception thrown while reading, invoking or writing an operation.</summary>
    public static Message FromException(MessageVersion version, Exception exception, bool includeDetail)
    {
        if (exception is FaultException fault)
        {
            MessageFault messageFault = fault.CreateMessageFault();
            return Create(version, messageFault.Code, messageFault.Reason.ToString(), messageFault, fault.Action);
        }

        string reason = includeDetail
            ? $"{exception.GetType().FullName}: {exception.Message}"
            : "The server was unable to process the request due to an internal error.";
        return Create(version, new FaultCode("Receiver", new FaultCode("InternalServiceFault", DispatcherNamespace)), reason, null, null);
    }

    /// <summary>A sender fault saying no operation of the contract matches the request's action.</summary>
    public static Message ActionNotSupported(MessageVersion version, string? action) =>
        Create(
            version,
            new FaultCode("Sender", new FaultCode("ActionNotSupported", AddressingNamespace)),
            $"The message with Action '{action}' cannot be processed at the receiver: no operation of the contract has that action.",
            null,
            null);

    /// <summary>
    /// A sender fault for a request that could not be read (a reader quota, a malformed body, a surrogate that refuses
    /// the payload). Like WCF, it always carries the reason, since it names what the caller must change.
    /// </summary>
    public static Message DeserializationFailed(MessageVersion version, string operation, Exception exception)
    {
        // The formatter reads the request as the reply of a mirrored operation (see MirroredOperationFormatter), so
        // its own wrapper message would say "reply"; the innermost exception names the actual cause.
        Exception cause = exception;
        while (cause.InnerException is not null)
        {
            cause = cause.InnerException;
        }

        string reason = $"The formatter threw an exception while trying to deserialize the request of operation '{operation}': {cause.Message}";
        return Create(version, new FaultCode("Sender", new FaultCode("DeserializationFailed", DispatcherNamespace)), reason, null, null);
    }

    /// <summary>
    /// A MustUnderstand fault: the request carries a mustUnderstand header nothing on this endpoint understood, so the
    /// operation was not invoked (as WCF checks after reading the request and before invoking).
    /// </summary>
    public static Message MustUnderstand(MessageVersion version, IEnumerable<MessageHeaderInfo> notUnderstood) =>
        Create(
            version,
            new FaultCode("MustUnderstand"),
            "The header(s) " + string.Join(", ", notUnderstood.Select(h => $"'{h.Name}' of namespace '{h.Namespace}'"))
                + " were not understood by the recipient of this message, causing the message to not be processed.",
            null,
            null);

    /// <summary>A receiver fault saying the request exceeded the endpoint's MaxReceivedMessageSize.</summary>
    public static Message QuotaExceeded(MessageVersion version, int maxReceivedMessageSize) =>
        Create(
            version,
            new FaultCode("Receiver", new FaultCode("QuotaExceeded", DispatcherNamespace)),
            $"The request exceeds the service's maximum message size quota ({maxReceivedMessageSize} bytes); "
                + "raise MaxReceivedMessageSize on the service's binding.",
            null,
            null);

    private static FaultMessage Create(MessageVersion version, FaultCode code, string reason, MessageFault? detailSource, string? action)
    {
        action ??= version.Addressing == AddressingVersion.None ? null : AddressingNamespace + "/soap/fault";
        return new FaultMessage(version, action, new FaultBody(version.Envelope, code, reason, detailSource));
    }

    /// <summary>A fault message (<see cref="Message.IsFault"/> is true, as inspectors expect).</summary>
    private sealed class FaultMessage : Message
    {
        private readonly FaultBody body;

        public FaultMessage(MessageVersion version, string? action, FaultBody body)
        {
            this.body = body;
            Version = version;
            Headers = new MessageHeaders(version);
            if (action is not null)
            {
                Headers.Action = action;
            }
        }

        public override MessageHeaders Headers { get; }

        public override MessageProperties Properties { get; } = new();

        public override MessageVersion Version { get; }

        public override bool IsFault => true;

        protected override void OnWriteBodyContents(XmlDictionaryWriter writer) => body.Write(writer);
    }

    private sealed class FaultBody(EnvelopeVersion envelope, FaultCode code, string reason, MessageFault? detailSource)
    {
        private readonly bool soap11 = envelope == EnvelopeVersion.Soap11;
        private readonly string ns = envelope == EnvelopeVersion.Soap11
            ? "http://schemas.xmlsoap.org/soap/envelope/"
            : "http://www.w3.org/2003/05/soap-envelope";

        public void Write(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement("s", "Fault", ns);
            if (soap11)
            {
                writer.WriteStartElement("faultcode", string.Empty);
                WriteQualifiedCode(writer, code.SubCode ?? code, soap11Fallback: true);
                writer.WriteEndElement();
                writer.WriteStartElement("faultstring", string.Empty);
                writer.WriteAttributeString("xml", "lang", null, "en-US");
                writer.WriteString(reason);
                writer.WriteEndElement();
                WriteDetail(writer, "detail", string.Empty);
            }
            else
            {
                writer.WriteStartElement("Code", ns);
                WriteCode12(writer, code);
                writer.WriteEndElement();
                writer.WriteStartElement("Reason", ns);
                writer.WriteStartElement("Text", ns);
                writer.WriteAttributeString("xml", "lang", null, "en-US");
                writer.WriteString(reason);
                writer.WriteEndElement();
                writer.WriteEndElement();
                WriteDetail(writer, "Detail", ns);
            }

            writer.WriteEndElement();
        }

        private void WriteCode12(XmlDictionaryWriter writer, FaultCode current)
        {
            writer.WriteStartElement("Value", ns);
            WriteQualifiedCode(writer, current, soap11Fallback: false);
            writer.WriteEndElement();
            if (current.SubCode is { } sub)
            {
                writer.WriteStartElement("Subcode", ns);
                WriteCode12(writer, sub);
                writer.WriteEndElement();
            }
        }

        private void WriteQualifiedCode(XmlDictionaryWriter writer, FaultCode current, bool soap11Fallback)
        {
            string name = current.Name;
            string codeNamespace = current.Namespace ?? string.Empty;
            if (codeNamespace.Length == 0 || codeNamespace == ns)
            {
                // Predefined codes live in the envelope namespace; SOAP 1.1 spells them Client/Server.
                codeNamespace = ns;
                if (soap11Fallback)
                {
                    name = name switch { "Sender" => "Client", "Receiver" => "Server", _ => name };
                }
            }

            string prefix = writer.LookupPrefix(codeNamespace) ?? "a";
            if (writer.LookupPrefix(codeNamespace) is null)
            {
                writer.WriteXmlnsAttribute(prefix, codeNamespace);
            }

            writer.WriteString(prefix + ":" + name);
        }

        private void WriteDetail(XmlDictionaryWriter writer, string element, string elementNamespace)
        {
            if (detailSource is not { HasDetail: true })
            {
                return;
            }

            writer.WriteStartElement(element, elementNamespace);
            using (XmlDictionaryReader reader = detailSource.GetReaderAtDetailContents())
            {
                while (reader.NodeType != XmlNodeType.EndElement && !reader.EOF)
                {
                    writer.WriteNode(reader, defattr: false);
                }
            }

            writer.WriteEndElement();
        }
    }
}
