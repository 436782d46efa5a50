using System.Data;
using System.Text;
using System.Xml;
using System.Xml.Serialization;

namespace Surrogate.Perf.Benchmarks.Codecs;

/// <summary>
/// DataSet's own text XML: schema + DiffGram through its IXmlSerializable members (the content WCF and ASMX put
/// in a message), written with an XmlWriter and read back with an XmlTextReader as ASMX did.
/// </summary>
public sealed class DiffGramTextCodec : IDataSetCodec
{
    private static readonly XmlWriterSettings WriterSettings = new() { Encoding = new UTF8Encoding(false), CloseOutput = false };
    private readonly MemoryStream buffer = new(1 << 16);

    /// <inheritdoc />
    public string Name => "diffgram-text";

    /// <inheritdoc />
    public ReadOnlyMemory<byte> Serialize(DataSet dataSet)
    {
        buffer.SetLength(0);
        using (var writer = XmlWriter.Create(buffer, WriterSettings))
        {
            writer.WriteStartElement("DataSet");
            ((IXmlSerializable)dataSet).WriteXml(writer);
            writer.WriteEndElement();
        }

        return buffer.GetBuffer().AsMemory(0, (int)buffer.Length);
    }

    /// <inheritdoc />
    public DataSet Deserialize(ReadOnlyMemory<byte> payload)
    {
        var segment = DataContractBinaryCodec.AsSegment(payload);
        using var stream = new MemoryStream(segment.Array!, segment.Offset, segment.Count, writable: false);
        using var reader = new XmlTextReader(stream) { DtdProcessing = DtdProcessing.Prohibit };
        reader.MoveToContent();
        var dataSet = new DataSet();
        ((IXmlSerializable)dataSet).ReadXml(reader);
        return dataSet;
    }
}
