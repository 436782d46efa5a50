using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.SoapHost.Dispatch;

/// <summary>Builds SOAP fault messages the WCF client turns into <see cref="FaultException"/>.</summary>
/// <remarks>
/// The client package's reference surface has neither <c>MessageFault.CreateFault</c> nor <c>MessageFault.WriteTo</c>,
/// so the fault body is written here, in the SOAP 1.1 or SOAP 1.2 layout of the endpoint's message version.
/// </remarks>
internal static class SoapFaults
{
    private const string DispatcherNamespace = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";
    private const string AddressingNamespace = "http://www.w3.org/2005/08/addressing";
    private const string FaultMarker = "Surrogate.SoapHost.Fault";

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

    /// <summary>Whether <paramref name="message"/> is a fault (built here or by the service).</summary>
    public static bool IsFault(Message message) => message.IsFault || message.Properties.ContainsKey(FaultMarker);

    private static Message Create(MessageVersion version, FaultCode code, string reason, MessageFault? detailSource, string? action)
    {
        action ??= version.Addressing == AddressingVersion.None ? null : AddressingNamespace + "/soap/fault";
        Message message = Message.CreateMessage(version, action, new FaultBodyWriter(version.Envelope, code, reason, detailSource));
        message.Properties[FaultMarker] = true;
        return message;
    }

    private sealed class FaultBodyWriter(EnvelopeVersion envelope, FaultCode code, string reason, MessageFault? detailSource)
        : BodyWriter(isBuffered: true)
    {
        private readonly bool soap11 = envelope == EnvelopeVersion.Soap11;
        private readonly string ns = envelope == EnvelopeVersion.Soap11
            ? "http://schemas.xmlsoap.org/soap/envelope/"
            : "http://www.w3.org/2003/05/soap-envelope";

        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
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
