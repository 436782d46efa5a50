using System.Buffers;
using System.Data;

namespace Surrogate.Perf.Benchmarks.Codecs;

/// <summary>The DataSet surrogate: columnar protobuf through <see cref="DataSetSerializer"/>.</summary>
public sealed class SurrogateCodec : IDataSetCodec
{
    private readonly ArrayBufferWriter<byte> buffer = new(1 << 16);

    /// <inheritdoc />
    public string Name => "surrogate";

    /// <inheritdoc />
    public ReadOnlyMemory<byte> Serialize(DataSet dataSet)
    {
        buffer.ResetWrittenCount();
        DataSetSerializer.Serialize(buffer, dataSet);
        return buffer.WrittenMemory;
    }

    /// <inheritdoc />
    public DataSet Deserialize(ReadOnlyMemory<byte> payload) => DataSetSerializer.Deserialize(payload);
}
