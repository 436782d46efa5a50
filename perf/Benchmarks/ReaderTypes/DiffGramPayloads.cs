using System.Collections.Concurrent;
using System.Data;
using System.Runtime.Serialization;
using System.Xml;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.ReaderTypes;

/// <summary>
/// One scenario's DataSet written once by DataContractSerializer (schema + DiffGram inside the DCS wrapper, as WCF
/// sends it) in three encodings: text XML, binary XML, and binary XML with a session dictionary.
/// </summary>
public sealed class DiffGramPayloads
{
    /// <summary>Payload key: DCS over a text XmlDictionaryWriter.</summary>
    public const string Text = "xml-text";

    /// <summary>Payload key: DCS over a binary XmlDictionaryWriter without a session.</summary>
    public const string Binary = "xml-binary";

    /// <summary>Payload key: DCS over a binary XmlDictionaryWriter with an XmlBinaryWriterSession.</summary>
    public const string BinarySession = "xml-binary-session";

    private static readonly ConcurrentDictionary<string, DiffGramPayloads> Cache = new();

    private DiffGramPayloads(string scenario)
    {
        var dataSet = ScenarioCatalog.Create(scenario);
        RowCount = ScenarioCatalog.RowCount(dataSet);
        var serializer = new DataContractSerializer(typeof(DataSet));
        TextBytes = Write(serializer, dataSet, s => XmlDictionaryWriter.CreateTextWriter(s, System.Text.Encoding.UTF8, ownsStream: false));
        BinaryBytes = Write(serializer, dataSet, s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, ownsStream: false));
        var session = new RecordingWriterSession();
        SessionBytes = Write(serializer, dataSet, s => XmlDictionaryWriter.CreateBinaryWriter(s, Dictionary, session, ownsStream: false));
        SessionStrings = session.Strings;
    }

    /// <summary>Rows in the scenario.</summary>
    public int RowCount { get; }

    /// <summary>DCS text XML.</summary>
    public byte[] TextBytes { get; }

    /// <summary>DCS binary XML without a session.</summary>
    public byte[] BinaryBytes { get; }

    /// <summary>DCS binary XML whose repeated names went into the session.</summary>
    public byte[] SessionBytes { get; }

    /// <summary>Strings the writer session assigned, in key order (WCF sends these in-band to the reader).</summary>
    public IReadOnlyList<string> SessionStrings { get; }

    /// <summary>The static dictionary shared by writer and reader (empty: DataSet writes names as strings).</summary>
    public static XmlDictionary Dictionary { get; } = new();

    /// <summary>Whether a payload key belongs to this class.</summary>
    public static bool IsKey(string key) => key is Text or Binary or BinarySession;

    /// <summary>The payloads of a scenario (built once per process).</summary>
    public static DiffGramPayloads For(string scenario) => Cache.GetOrAdd(scenario, static s => new DiffGramPayloads(s));

    /// <summary>Payload size for the bytes column.</summary>
    public static long Size(string key, string scenario)
    {
        var payloads = For(scenario);
        return key switch
        {
            Text => payloads.TextBytes.Length,
            Binary => payloads.BinaryBytes.Length,
            _ => payloads.SessionBytes.Length,
        };
    }

    /// <summary>A reader session pre-filled with what the writer session assigned.</summary>
    public XmlBinaryReaderSession CreateReaderSession()
    {
        var session = new XmlBinaryReaderSession();
        for (int i = 0; i < SessionStrings.Count; i++)
        {
            session.Add(i, SessionStrings[i]);
        }

        return session;
    }

    private static byte[] Write(DataContractSerializer serializer, DataSet dataSet, Func<Stream, XmlDictionaryWriter> create)
    {
        using var stream = new MemoryStream();
        using (var writer = create(stream))
        {
            serializer.WriteObject(writer, dataSet);
        }

        return stream.ToArray();
    }

    private sealed class RecordingWriterSession : XmlBinaryWriterSession
    {
        private readonly List<string> strings = [];

        public IReadOnlyList<string> Strings => strings;

        public override bool TryAdd(XmlDictionaryString value, out int key)
        {
            if (!base.TryAdd(value, out key))
            {
                return false;
            }

            if (key != strings.Count)
            {
                throw new InvalidOperationException("Session keys are expected to be assigned in order.");
            }

            strings.Add(value.Value);
            return true;
        }
    }
}
