using System.Data;
using ProtoBuf.Data;

namespace Surrogate.Perf.Benchmarks.Codecs;

/// <summary>
/// protobuf-net-data, the prior art of issue 2: row-wise protobuf of <see cref="DataSet.CreateDataReader()"/>, read
/// back through <see cref="DataSet.Load(IDataReader, LoadOption, string[])"/>. Compiled only when the build is given
/// <c>-p:WithProtobufNetData=true</c>, which adds its package (see RESULTS.md). Its stream carries no table names, so the reading side is
/// told them, as its own API requires.
/// </summary>
/// <param name="tableNames">Names for the result sets when reading; empty for a codec that only serializes.</param>
public sealed class ProtobufNetDataCodec(IReadOnlyList<string> tableNames) : IDataSetCodec
{
    private readonly string[] tables = [.. tableNames];
    private readonly MemoryStream buffer = new(1 << 16);

    /// <summary>A codec that serializes only (reading needs the table names).</summary>
    public ProtobufNetDataCodec()
        : this([])
    {
    }

    /// <inheritdoc />
    public string Name => "protobuf-net-data";

    /// <summary>A codec that reads payloads back with the table names of <paramref name="shape"/>.</summary>
    public static ProtobufNetDataCodec For(DataSet shape) =>
        new(shape.Tables.Cast<DataTable>().Select(t => t.TableName).ToArray());

    /// <inheritdoc />
    public ReadOnlyMemory<byte> Serialize(DataSet dataSet)
    {
        buffer.SetLength(0);
        DataSerializer.Serialize(buffer, dataSet);
        return buffer.GetBuffer().AsMemory(0, (int)buffer.Length);
    }

    /// <inheritdoc />
    public DataSet Deserialize(ReadOnlyMemory<byte> payload)
    {
        if (tables.Length == 0)
        {
            throw new InvalidOperationException("protobuf-net-data needs the table names to read a DataSet; create the codec with For(shape).");
        }

        var segment = DataContractBinaryCodec.AsSegment(payload);
        using var stream = new MemoryStream(segment.Array!, segment.Offset, segment.Count, writable: false);
        return DataSerializer.DeserializeDataSet(stream, tables);
    }
}
