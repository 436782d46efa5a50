using System.Data;
using System.Runtime.Serialization;
using System.Xml;
using System.Xml.Serialization;
using BenchmarkDotNet.Attributes;
using Surrogate.Perf.Benchmarks.Columns;

namespace Surrogate.Perf.Benchmarks.ReaderTypes;

/// <summary>
/// Issue 4's reader-type isolation: the same DataContractSerializer-written DiffGram (schema + data) loaded by
/// DataSet's IXmlSerializable.ReadXml (the entry WCF and ASMX both use) from each kind of XmlReader, plus the full
/// DataContractSerializer path as WCF runs it. Baseline: XmlTextReader, what ASMX handed DataSet in 2011.
/// </summary>
[Config(typeof(BenchConfig))]
public class ReaderTypeBenchmarks
{
    private static readonly DataContractSerializer Serializer = new(typeof(DataSet));
    private static readonly XmlReaderSettings CreateSettings = new() { DtdProcessing = DtdProcessing.Prohibit };
    private DiffGramPayloads payloads = null!;
    private XmlBinaryReaderSession readerSession = null!;

    /// <summary>Scenario name from the shared catalog.</summary>
    [ParamsSource(nameof(Scenarios))]
    public string Scenario { get; set; } = "small";

    /// <summary>Scenarios of this run (see <see cref="BenchProfile"/>).</summary>
    public static IEnumerable<string> Scenarios => BenchProfile.ReaderScenarios;

    /// <summary>Writes the payloads once and checks that every reader path loads every row.</summary>
    [GlobalSetup]
    public void Setup()
    {
        payloads = DiffGramPayloads.For(Scenario);
        readerSession = payloads.CreateReaderSession();
        Func<DataSet>[] paths =
        [
            XmlTextReader_ReadXml, XmlReaderCreate_ReadXml, DelegatingWrapper_ReadXml, TextDictionaryReader_ReadXml,
            BinaryDictionaryReader_ReadXml, BinaryDictionaryReaderWithSession_ReadXml, Dcs_BinaryDictionaryReader, Dcs_TextDictionaryReader,
        ];
        foreach (var path in paths)
        {
            int rows = path().Tables.Cast<DataTable>().Sum(t => t.Rows.Count);
            if (rows != payloads.RowCount)
            {
                throw new InvalidOperationException($"{path.Method.Name} loaded {rows} rows, expected {payloads.RowCount}.");
            }
        }
    }

    /// <summary>ASMX's reader: XmlTextReader (DataSet turns off its normalization).</summary>
    [Benchmark(Baseline = true), Payload(DiffGramPayloads.Text)]
    public DataSet XmlTextReader_ReadXml()
    {
        using var reader = new XmlTextReader(new MemoryStream(payloads.TextBytes, writable: false)) { DtdProcessing = DtdProcessing.Prohibit };
        return Load(reader);
    }

    /// <summary>The modern text reader from XmlReader.Create.</summary>
    [Benchmark, Payload(DiffGramPayloads.Text)]
    public DataSet XmlReaderCreate_ReadXml()
    {
        using var reader = XmlReader.Create(new MemoryStream(payloads.TextBytes, writable: false), CreateSettings);
        return Load(reader);
    }

    /// <summary>XmlReader.Create inside a no-op delegating reader: the price of one layer.</summary>
    [Benchmark, Payload(DiffGramPayloads.Text)]
    public DataSet DelegatingWrapper_ReadXml()
    {
        using var reader = new DelegatingXmlReader(XmlReader.Create(new MemoryStream(payloads.TextBytes, writable: false), CreateSettings));
        return Load(reader);
    }

    /// <summary>WCF's text reader (BasicHttpBinding's encoder builds on it).</summary>
    [Benchmark, Payload(DiffGramPayloads.Text)]
    public DataSet TextDictionaryReader_ReadXml()
    {
        using var reader = XmlDictionaryReader.CreateTextReader(payloads.TextBytes, XmlDictionaryReaderQuotas.Max);
        return Load(reader);
    }

    /// <summary>WCF's binary reader without a session dictionary.</summary>
    [Benchmark, Payload(DiffGramPayloads.Binary)]
    public DataSet BinaryDictionaryReader_ReadXml()
    {
        using var reader = XmlDictionaryReader.CreateBinaryReader(payloads.BinaryBytes, XmlDictionaryReaderQuotas.Max);
        return Load(reader);
    }

    /// <summary>WCF's binary reader with an XmlBinaryReaderSession, as NetTcp's session encoder uses.</summary>
    [Benchmark, Payload(DiffGramPayloads.BinarySession)]
    public DataSet BinaryDictionaryReaderWithSession_ReadXml()
    {
        var bytes = payloads.SessionBytes;
        using var reader = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, DiffGramPayloads.Dictionary, XmlDictionaryReaderQuotas.Max, readerSession);
        return Load(reader);
    }

    /// <summary>DataContractSerializer over the binary reader: the whole WCF NetTcp path for the message body.</summary>
    [Benchmark, Payload(DiffGramPayloads.Binary)]
    public DataSet Dcs_BinaryDictionaryReader()
    {
        using var reader = XmlDictionaryReader.CreateBinaryReader(payloads.BinaryBytes, XmlDictionaryReaderQuotas.Max);
        return (DataSet)Serializer.ReadObject(reader)!;
    }

    /// <summary>DataContractSerializer over the text reader: the WCF BasicHttp path for the message body.</summary>
    [Benchmark, Payload(DiffGramPayloads.Text)]
    public DataSet Dcs_TextDictionaryReader()
    {
        using var reader = XmlDictionaryReader.CreateTextReader(payloads.TextBytes, XmlDictionaryReaderQuotas.Max);
        return (DataSet)Serializer.ReadObject(reader)!;
    }

    private static DataSet Load(XmlReader reader)
    {
        reader.MoveToContent();
        var dataSet = new DataSet();
        ((IXmlSerializable)dataSet).ReadXml(reader);
        return dataSet;
    }
}
