// Competitors: the surrogate, DataContractSerializer over binary XML (WCF today; baseline), DataSet text DiffGram, and two floors.
// protobuf-net-data (issue 2's prior art) is compared by PriorArt/PriorArtBenchmarks, built only with
// -p:WithProtobufNetData=true, which adds its package (RESULTS.md, "Prior art").
using System.Data;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Surrogate.Perf.Benchmarks.Codecs;
using Surrogate.Perf.Benchmarks.Columns;
using Surrogate.Perf.Benchmarks.Floors;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks;

/// <summary>
/// Issue 2's codec comparison for each scenario: serialize, deserialize and round trip, each category with the
/// binary-XML DataContractSerializer path as baseline (ratio 1.0) and a floor showing the least possible work.
/// </summary>
[Config(typeof(BenchConfig))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams)]
public class CodecBenchmarks
{
    private const string Serialize = "Serialize";
    private const string Deserialize = "Deserialize";
    private const string RoundTrip = "RoundTrip";

    private readonly SurrogateCodec surrogate = new();
    private readonly DataContractBinaryCodec dcsBinary = new();
    private readonly DiffGramTextCodec diffGramText = new();
    private DataSet source = null!;
    private ScenarioData arrays = null!;
    private ReadOnlyMemory<byte> surrogatePayload;
    private ReadOnlyMemory<byte> dcsBinaryPayload;
    private ReadOnlyMemory<byte> diffGramTextPayload;

    /// <summary>Scenario name from <see cref="ScenarioCatalog"/>.</summary>
    [ParamsSource(nameof(Scenarios))]
    public string Scenario { get; set; } = "small";

    /// <summary>Scenarios of this run (see <see cref="BenchProfile"/>).</summary>
    public static IEnumerable<string> Scenarios => BenchProfile.CodecScenarios;

    /// <summary>Builds the scenario, its column arrays and one payload per codec (copied: codec buffers are reused).</summary>
    [GlobalSetup]
    public void Setup()
    {
        source = ScenarioCatalog.Create(Scenario);
        arrays = ScenarioData.Extract(source);
        surrogatePayload = new SurrogateCodec().Serialize(source).ToArray();
        dcsBinaryPayload = new DataContractBinaryCodec().Serialize(source).ToArray();
        diffGramTextPayload = new DiffGramTextCodec().Serialize(source).ToArray();
        int expected = ScenarioCatalog.RowCount(source);
        Check(expected, new SurrogateCodec().Deserialize(surrogatePayload), "surrogate");
        Check(expected, new DataContractBinaryCodec().Deserialize(dcsBinaryPayload), "dcs-binary");
        Check(expected, new DiffGramTextCodec().Deserialize(diffGramTextPayload), "diffgram-text");
        Check(expected, BuildFromArraysFloor.Build(arrays), "build floor");
    }

    /// <summary>Surrogate: DataSet to protobuf.</summary>
    [Benchmark, BenchmarkCategory(Serialize), Payload("surrogate")]
    public int Serialize_Surrogate() => surrogate.Serialize(source).Length;

    /// <summary>Baseline: DataContractSerializer over a binary XmlDictionaryWriter.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory(Serialize), Payload("dcs-binary")]
    public int Serialize_DcsBinaryXml() => dcsBinary.Serialize(source).Length;

    /// <summary>DataSet schema + DiffGram as text XML.</summary>
    [Benchmark, BenchmarkCategory(Serialize), Payload("diffgram-text")]
    public int Serialize_DiffGramText() => diffGramText.Serialize(source).Length;

    /// <summary>Floor: read every cell.</summary>
    [Benchmark, BenchmarkCategory(Serialize)]
    public int Serialize_Floor_ReadEveryCell() => ReadEveryCellFloor.Read(source);

    /// <summary>Surrogate: protobuf to DataSet.</summary>
    [Benchmark, BenchmarkCategory(Deserialize), Payload("surrogate")]
    public DataSet Deserialize_Surrogate() => surrogate.Deserialize(surrogatePayload);

    /// <summary>Baseline: DataContractSerializer over a binary XmlDictionaryReader.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory(Deserialize), Payload("dcs-binary")]
    public DataSet Deserialize_DcsBinaryXml() => dcsBinary.Deserialize(dcsBinaryPayload);

    /// <summary>DataSet schema + DiffGram from an XmlTextReader.</summary>
    [Benchmark, BenchmarkCategory(Deserialize), Payload("diffgram-text")]
    public DataSet Deserialize_DiffGramText() => diffGramText.Deserialize(diffGramTextPayload);

    /// <summary>Floor: build the same DataSet from column arrays.</summary>
    [Benchmark, BenchmarkCategory(Deserialize)]
    public DataSet Deserialize_Floor_BuildFromArrays() => BuildFromArraysFloor.Build(arrays);

    /// <summary>Surrogate: serialize then deserialize.</summary>
    [Benchmark, BenchmarkCategory(RoundTrip), Payload("surrogate")]
    public DataSet RoundTrip_Surrogate() => surrogate.Deserialize(surrogate.Serialize(source));

    /// <summary>Baseline: DataContractSerializer over binary XML, both ways.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory(RoundTrip), Payload("dcs-binary")]
    public DataSet RoundTrip_DcsBinaryXml() => dcsBinary.Deserialize(dcsBinary.Serialize(source));

    /// <summary>Text DiffGram both ways.</summary>
    [Benchmark, BenchmarkCategory(RoundTrip), Payload("diffgram-text")]
    public DataSet RoundTrip_DiffGramText() => diffGramText.Deserialize(diffGramText.Serialize(source));

    /// <summary>Floor: read every cell, then build from arrays.</summary>
    [Benchmark, BenchmarkCategory(RoundTrip)]
    public DataSet RoundTrip_Floor_ReadThenBuild()
    {
        ReadEveryCellFloor.Read(source);
        return BuildFromArraysFloor.Build(arrays);
    }

    private static void Check(int expectedRows, DataSet actual, string what)
    {
        if (ScenarioCatalog.RowCount(actual) != expectedRows)
        {
            throw new InvalidOperationException($"{what} produced {ScenarioCatalog.RowCount(actual)} rows, expected {expectedRows}.");
        }
    }
}
