using System.Data;
using System.Runtime.Serialization;
using System.Xml;

namespace Surrogate.Perf.Benchmarks.Codecs;

/// <summary>
/// What WCF does with a DataSet on a binary binding: DataContractSerializer (DataSet is IXmlSerializable, so it
/// writes schema + DiffGram) over a binary XmlDictionaryWriter/Reader. The comparison's baseline.
/// </summary>
public sealed class DataContractBinaryCodec : IDataSetCodec
{
    private static readonly DataContractSerializer Serializer = new(typeof(DataSet));
    private readonly MemoryStream buffer = new(1 << 16);

    /// <inheritdoc />
    public string Name => "dcs-binary";

    /// <inheritdoc />
    public ReadOnlyMemory<byte> Serialize(DataSet dataSet)
    {
        buffer.SetLength(0);
        using (var writer = XmlDictionaryWriter.CreateBinaryWriter(buffer, null, null, ownsStream: false))
        {
            Serializer.WriteObject(writer, dataSet);
        }

        return buffer.GetBuffer().AsMemory(0, (int)buffer.Length);
    }

    /// <inheritdoc />
    public DataSet Deserialize(ReadOnlyMemory<byte> payload)
    {
        var segment = AsSegment(payload);
        using var reader = XmlDictionaryReader.CreateBinaryReader(segment.Array!, segment.Offset, segment.Count, XmlDictionaryReaderQuotas.Max);
        return (DataSet)Serializer.ReadObject(reader)!;
    }

    internal static ArraySegment<byte> AsSegment(ReadOnlyMemory<byte> payload) =>
        System.Runtime.InteropServices.MemoryMarshal.TryGetArray(payload, out var segment) ? segment : new ArraySegment<byte>(payload.ToArray());
}
