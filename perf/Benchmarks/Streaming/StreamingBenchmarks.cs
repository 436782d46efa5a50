using System.Collections.Concurrent;
using System.Data;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Surrogate.Perf.Benchmarks.Columns;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Benchmarks.Streaming;

/// <summary>
/// Issue 2's streaming target: rows go IDataReader -> Serialize(Stream) and payload -> CreateReader without a
/// DataTable, and the memory they need must not grow with the row count. Compare Alloc B/row and Peak live heap
/// between the two row counts; the generator floor shows what producing the rows alone costs.
/// </summary>
[Config(typeof(StreamingConfig))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams)]
public class StreamingBenchmarks
{
    /// <summary>Payload key for the bytes column.</summary>
    public const string PayloadKey = "surrogate-stream";

    private static readonly ConcurrentDictionary<int, long> Sizes = new();
    private byte[] payload = [];

    /// <summary>Rows streamed per operation.</summary>
    [ParamsSource(nameof(RowCounts))]
    public int Rows { get; set; } = 10_000;

    /// <summary>Row counts of this run (see <see cref="BenchProfile"/>).</summary>
    public static IEnumerable<int> RowCounts => BenchProfile.StreamingRows;

    /// <summary>Payload size for a row count (computed once, streamed to a counting sink).</summary>
    public static long PayloadSize(int rows) => Sizes.GetOrAdd(rows, static n =>
    {
        using var reader = new GeneratedRowsReader(n);
        var sink = new CountingStream();
        DataSetSerializer.Serialize(sink, reader);
        return sink.Length;
    });

    /// <summary>Writes the payload the read benchmark consumes.</summary>
    [GlobalSetup]
    public void Setup()
    {
        using var reader = new GeneratedRowsReader(Rows);
        using var stream = new MemoryStream();
        DataSetSerializer.Serialize(stream, reader);
        payload = stream.ToArray();
        int read = ReadAll();
        if (read != Rows)
        {
            throw new InvalidOperationException($"CreateReader returned {read} rows, expected {Rows}.");
        }
    }

    /// <summary>Floor: generate and visit the rows without serializing.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory("Write")]
    public int Write_Floor_GenerateRows()
    {
        using var reader = new GeneratedRowsReader(Rows);
        var values = new object[reader.FieldCount];
        int rows = 0;
        while (reader.Read())
        {
            reader.GetValues(values);
            rows++;
        }

        return rows;
    }

    /// <summary>Generated rows through Serialize(Stream, IDataReader) into a sink that keeps nothing.</summary>
    [Benchmark, BenchmarkCategory("Write"), Payload(PayloadKey)]
    public long Write_SerializeDataReader()
    {
        using var reader = new GeneratedRowsReader(Rows);
        var sink = new CountingStream();
        DataSetSerializer.Serialize(sink, reader);
        return sink.Length;
    }

    /// <summary>The payload read back row by row through CreateReader.</summary>
    [Benchmark(Baseline = true), BenchmarkCategory("Read"), Payload(PayloadKey)]
    public int Read_CreateReader() => ReadAll();

    private int ReadAll()
    {
        using var stream = new MemoryStream(payload, writable: false);
        using IDataReader reader = DataSetSerializer.CreateReader(stream);
        var values = new object[reader.FieldCount];
        int rows = 0;
        do
        {
            while (reader.Read())
            {
                reader.GetValues(values);
                rows++;
            }
        }
        while (reader.NextResult());
        return rows;
    }
}
