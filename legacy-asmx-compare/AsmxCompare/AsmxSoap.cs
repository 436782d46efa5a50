using System.Data;
using System.Text;
using System.Xml;
using System.Xml.Serialization;
using Surrogate.Perf.Scenarios;

namespace Surrogate.AsmxCompare;

/// <summary>
/// The SOAP 1.1 document/literal shapes an ASMX web service used, read and written the way ASMX did: an
/// <see cref="XmlTextReader"/> over the message (so DataSet's own fast path for that reader applies) and an
/// <see cref="XmlTextWriter"/>, with DataSet going through its IXmlSerializable schema + DiffGram.
/// </summary>
public static class AsmxSoap
{
    public const string SoapNamespace = "http://schemas.xmlsoap.org/soap/envelope/";
    public const string ServiceNamespace = "http://tempuri.org/";
    public const string ContentType = "text/xml; charset=utf-8";

    private static readonly XmlSerializer ObjectsSerializer =
        new(typeof(SmallObject[]), new XmlRootAttribute("GetObjectsResult") { Namespace = ServiceNamespace });

    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Writes a whole envelope whose body is one wrapper element filled by <paramref name="body"/>.</summary>
    public static byte[] Envelope(string wrapper, Action<XmlWriter> body)
    {
        using var buffer = new MemoryStream();
        using (var writer = new XmlTextWriter(buffer, Utf8))
        {
            writer.WriteStartDocument();
            writer.WriteStartElement("soap", "Envelope", SoapNamespace);
            writer.WriteStartElement("soap", "Body", SoapNamespace);
            writer.WriteStartElement(wrapper, ServiceNamespace);
            body(writer);
            writer.WriteEndElement();
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        return buffer.ToArray();
    }

    /// <summary>A SOAP 1.1 fault envelope (sent with HTTP 500, as ASMX did).</summary>
    public static byte[] Fault(string message)
    {
        using var buffer = new MemoryStream();
        using (var writer = new XmlTextWriter(buffer, Utf8))
        {
            writer.WriteStartElement("soap", "Envelope", SoapNamespace);
            writer.WriteStartElement("soap", "Body", SoapNamespace);
            writer.WriteStartElement("soap", "Fault", SoapNamespace);
            writer.WriteElementString("faultcode", "soap:Server");
            writer.WriteElementString("faultstring", message);
            writer.WriteEndElement();
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        return buffer.ToArray();
    }

    /// <summary>Writes a DataSet as XmlSerializer wrote one for ASMX: an element holding schema and DiffGram.</summary>
    public static void WriteDataSet(XmlWriter writer, string element, DataSet dataSet)
    {
        writer.WriteStartElement(element, ServiceNamespace);
        ((System.Xml.Serialization.IXmlSerializable)dataSet).WriteXml(writer);
        writer.WriteEndElement();
    }

    /// <summary>Reads the DataSet held by the element the reader is on, through DataSet's IXmlSerializable path.</summary>
    public static DataSet ReadDataSet(XmlReader reader)
    {
        var dataSet = new DataSet();
        ((System.Xml.Serialization.IXmlSerializable)dataSet).ReadXml(reader);
        return dataSet;
    }

    public static void WriteObjects(XmlWriter writer, SmallObject[] objects) => ObjectsSerializer.Serialize(writer, objects);

    public static SmallObject[] ReadObjects(XmlReader reader) => (SmallObject[])ObjectsSerializer.Deserialize(reader)!;

    /// <summary>An XmlTextReader configured as ASMX configured its request reader.</summary>
    public static XmlTextReader Reader(Stream stream) => new(stream)
    {
        DtdProcessing = DtdProcessing.Prohibit,
        XmlResolver = null,
        WhitespaceHandling = WhitespaceHandling.Significant,
        Normalization = true,
    };

    /// <summary>Moves past Envelope and Body to the body's first element (the operation wrapper or a Fault).</summary>
    public static void MoveToBodyContent(XmlReader reader)
    {
        reader.MoveToContent();
        reader.ReadStartElement("Envelope", SoapNamespace);
        reader.MoveToContent();
        if (reader.LocalName == "Header")
        {
            reader.Skip();
            reader.MoveToContent();
        }

        reader.ReadStartElement("Body", SoapNamespace);
        reader.MoveToContent();
    }
}
