using System.Buffers;
using System.Data;
using BenchmarkDotNet.Attributes;
using Surrogate.Compression;
using Surrogate.Compression.Framing;
using Surrogate.Perf.Benchmarks.Columns;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.Compression;

/// <summary>
/// When compressing row blocks inside the payload pays: serialize + deserialize of each scenario with the surrogate
/// raw, with its row blocks compressed (LZ4, zstd 1 and 3; SurrogateOptions.BlockCodec), and raw then compressed
/// whole with the same codec and level by the compressing encoder's own framing (BufferedFrames, as
/// binding.WithCompression() does for a buffered message). The Payload column is what travels in each mode.
/// </summary>
[Config(typeof(BenchConfig))]
public class BlockCompressionBenchmarks
{
    /// <summary>The payload-size key of <see cref="RoundTrip"/>.</summary>
    public const string PayloadKey = "block-compression";

    private static readonly Dictionary<(string Mode, string Scenario), long> Sizes = [];

    private DataSet _source = null!;
    private SurrogateOptions _options = SurrogateOptions.Default;
    private CompressionSettings? _message;

    /// <summary>Scenario name from <see cref="ScenarioCatalog"/>.</summary>
    [ParamsSource(nameof(Scenarios))]
    public string Scenario { get; set; } = "small";

    /// <summary>raw; blocks-lz4, blocks-zstd1, blocks-zstd3; message-lz4, message-zstd1, message-zstd3.</summary>
    [Params("raw", "blocks-lz4", "blocks-zstd1", "blocks-zstd3", "message-lz4", "message-zstd1", "message-zstd3")]
    public string Mode { get; set; } = "raw";

    /// <summary>Scenarios of this run: the codec comparison's (see <see cref="BenchProfile"/>).</summary>
    public static IEnumerable<string> Scenarios => BenchProfile.CodecScenarios;

    /// <summary>Bytes that travel for a mode and scenario, measured once per process.</summary>
    public static long PayloadSize(string mode, string scenario)
    {
        lock (Sizes)
        {
            if (!Sizes.TryGetValue((mode, scenario), out var size))
            {
                var bench = new BlockCompressionBenchmarks { Scenario = scenario, Mode = mode };
                bench.Setup();
                Sizes[(mode, scenario)] = size = bench.RoundTrip();
            }

            return size;
        }
    }

    /// <summary>Builds the scenario and the mode's settings, and checks one round trip.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _source = ScenarioCatalog.Create(Scenario);
        var (codec, level) = Mode.Split('-') switch
        {
            [_, "lz4"] => (CompressionCodec.Lz4, 0),
            [_, "zstd1"] => (CompressionCodec.Zstd, 1),
            [_, "zstd3"] => (CompressionCodec.Zstd, 3),
            _ => (CompressionCodec.Lz4, -1),
        };
        _options = Mode.StartsWith("blocks-", StringComparison.Ordinal)
            ? new SurrogateOptions { BlockCodec = (RowBlockCodec)(int)codec, BlockCompressionLevel = level }
            : SurrogateOptions.Default;
        _message = Mode.StartsWith("message-", StringComparison.Ordinal)
            ? CompressionSettings.From(new CompressionOptions { Codec = codec, Level = level }, 1L << 30)
            : null;
        if (Deserialize(Serialize()).Tables.Cast<DataTable>().Sum(t => t.Rows.Count) != ScenarioCatalog.RowCount(_source))
        {
            throw new InvalidOperationException($"{Mode}/{Scenario}: the round trip lost rows.");
        }
    }

    /// <summary>Serialize, then deserialize what would travel; returns its length.</summary>
    [Benchmark, Payload(PayloadKey)]
    public int RoundTrip()
    {
        var wire = Serialize();
        Deserialize(wire);
        return wire.Count;
    }

    private ArraySegment<byte> Serialize()
    {
        var payload = DataSetSerializer.Serialize(_source, _options);
        if (_message is null)
        {
            return payload;
        }

        // The encoder frames a message its inner encoder wrote into a pooled buffer after room for the frame header.
        var buffer = ArrayPool<byte>.Shared.Rent(BufferedFrames.Reserve + payload.Length);
        payload.CopyTo(buffer, BufferedFrames.Reserve);
        return BufferedFrames.Encode(default(SharedPool), new ArraySegment<byte>(buffer, BufferedFrames.Reserve, payload.Length), 0, _message);
    }

    private DataSet Deserialize(ArraySegment<byte> wire)
    {
        if (_message is null)
        {
            return DataSetSerializer.Deserialize(wire.AsSpan());
        }

        var message = BufferedFrames.Decode(default(SharedPool), wire, _message);
        var result = DataSetSerializer.Deserialize(message.AsSpan());
        ArrayPool<byte>.Shared.Return(message.Array!);
        return result;
    }

    /// <summary>The shared array pool, standing in for the encoder's buffer manager.</summary>
    private readonly struct SharedPool : IBufferPool
    {
        public byte[] Take(int size) => ArrayPool<byte>.Shared.Rent(size);

        public void Return(byte[] buffer) => ArrayPool<byte>.Shared.Return(buffer);
    }
}
