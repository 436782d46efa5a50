// Compiled only with -p:WithProtobufNetData=true, which adds the protobuf-net-data package (RESULTS.md, "Prior art").
using System.Data;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Surrogate.Perf.Benchmarks.Codecs;
using Surrogate.Perf.Benchmarks.Columns;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.PriorArt;

/// <summary>
/// Issue 2's prior-art comparison: the surrogate against protobuf-net-data on the codec scenarios, protobuf-net-data
/// as baseline in every category, so Ratio reads as "× of protobuf-net-data" (targets: time ≤ 0.5×, bytes ≤ 0.8×).
/// </summary>
[Config(typeof(BenchConfig))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams)]
public class PriorArtBenchmarks
{
    private const string Serialize = "Serialize";
    private const string Deserialize = "Deserialize";
    private const string RoundTrip = "RoundTrip";

    private static readonly HashSet<string> Reported = [];
    private readonly SurrogateCodec surrogate = new();
    private ProtobufNetDataCodec protobufNetData = null!;
    private DataSet source = null!;
    private ReadOnlyMemory<byte> surrogatePayload;
    private ReadOnlyMemory<byte> protobufNetDataPayload;

    /// <summary>Scenario name from <see cref="ScenarioCatalog"/>.</summary>
    [ParamsSource(nameof(Scenarios))]
    public string Scenario { get; set; } = "small";

    /// <summary>Scenarios of this run: those of the codec comparison (see <see cref="BenchProfile"/>).</summary>
    public static IEnumerable<string> Scenarios => BenchProfile.CodecScenarios;

    /// <summary>Builds the scenario and both payloads, checks row counts and prints once per scenario what each codec carries.</summary>
    [GlobalSetup]
    public void Setup()
    {
        source = ScenarioCatalog.Create(Scenario);
        protobufNetData = ProtobufNetDataCodec.For(source);
        surrogatePayload = new SurrogateCodec().Serialize(source).ToArray();
        protobufNetDataPayload = ProtobufNetDataCodec.For(source).Serialize(source).ToArray();
        int expected = ScenarioCatalog.RowCount(source);
        Check(expected, new SurrogateCodec().Deserialize(surrogatePayload), "surrogate");
        Check(expected, ProtobufNetDataCodec.For(source).Deserialize(protobufNetDataPayload), "protobuf-net-data");
        if (Reported.Add(Scenario))
        {
            foreach (var line in Fidelity.Report(Scenario, new SurrogateCodec(), ProtobufNetDataCodec.For(source)))
            {
                Console.WriteLine(line);
            }
        }
    }

    /// <summary>Surrogate: DataSet to protobuf.</summary>
    [Benchmark, BenchmarkCategory(Serialize), Payload("surrogate")]
    public int Serialize_Surrogate() => surrogate.Serialize(source).Length;

    /// <summary>Baseline: protobuf-net-data, DataSet to protobuf.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory(Serialize), Payload("protobuf-net-data")]
    public int Serialize_ProtobufNetData() => protobufNetData.Serialize(source).Length;

    /// <summary>Surrogate: protobuf to DataSet.</summary>
    [Benchmark, BenchmarkCategory(Deserialize), Payload("surrogate")]
    public DataSet Deserialize_Surrogate() => surrogate.Deserialize(surrogatePayload);

    /// <summary>Baseline: protobuf-net-data, protobuf to DataSet.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory(Deserialize), Payload("protobuf-net-data")]
    public DataSet Deserialize_ProtobufNetData() => protobufNetData.Deserialize(protobufNetDataPayload);

    /// <summary>Surrogate: serialize then deserialize.</summary>
    [Benchmark, BenchmarkCategory(RoundTrip), Payload("surrogate")]
    public DataSet RoundTrip_Surrogate() => surrogate.Deserialize(surrogate.Serialize(source));

    /// <summary>Baseline: protobuf-net-data both ways.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory(RoundTrip), Payload("protobuf-net-data")]
    public DataSet RoundTrip_ProtobufNetData() => protobufNetData.Deserialize(protobufNetData.Serialize(source));

    private static void Check(int expectedRows, DataSet actual, string what)
    {
        if (ScenarioCatalog.RowCount(actual) != expectedRows)
        {
            throw new InvalidOperationException($"{what} produced {ScenarioCatalog.RowCount(actual)} rows, expected {expectedRows}.");
        }
    }
}
