using System.Data;

namespace Surrogate.Perf.Benchmarks.Codecs;

/// <summary>One competitor of the codec comparison: DataSet to bytes and back.</summary>
public interface IDataSetCodec
{
    /// <summary>Short name used in payload-size lookups.</summary>
    string Name { get; }

    /// <summary>
    /// Serializes into a buffer the codec owns and reuses, so the benchmark does not time a final copy;
    /// the result is valid until the next call.
    /// </summary>
    ReadOnlyMemory<byte> Serialize(DataSet dataSet);

    /// <summary>Reads a payload made by <see cref="Serialize"/>.</summary>
    DataSet Deserialize(ReadOnlyMemory<byte> payload);
}
