using System.Collections.Concurrent;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.Codecs;

/// <summary>Creates codecs by name and caches payload sizes per (codec, scenario) for the bytes column.</summary>
public static class CodecCatalog
{
    private static readonly ConcurrentDictionary<(string Codec, string Scenario), long> Sizes = new();

    /// <summary>A new instance of the named codec.</summary>
    public static IDataSetCodec Create(string name) => name switch
    {
        "surrogate" => new SurrogateCodec(),
        "dcs-binary" => new DataContractBinaryCodec(),
        "diffgram-text" => new DiffGramTextCodec(),
#if PROTOBUF_NET_DATA
        "protobuf-net-data" => new ProtobufNetDataCodec(),
#endif
        _ => throw new ArgumentException($"Unknown codec '{name}'.", nameof(name)),
    };

    /// <summary>Payload size of a scenario under a codec (computed once).</summary>
    public static long PayloadSize(string codec, string scenario) =>
        Sizes.GetOrAdd((codec, scenario), static key => Create(key.Codec).Serialize(ScenarioCatalog.Create(key.Scenario)).Length);
}
