using System.Buffers;
using System.Data;
using Surrogate.Fuzz;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>Bugs the fuzzer found (tests/Fuzz/run.sh), each with the smallest payload that shows it; the fuzzer's
/// own inputs are in Regression/ and replayed by FuzzRegressionTests.</summary>
public sealed class FuzzFindingTests
{
    /// <summary>DataSet silently turns an AutoIncrement column of a non-integer type into Int32: a payload declaring
    /// a string column with AutoIncrement loaded as an Int32 column (whose MaxLength then failed any re-serialization).</summary>
    [Fact]
    public void An_auto_increment_column_of_a_type_dataset_does_not_allow_is_refused()
    {
        var table = new DataTable("T");
        var auto = table.Columns.Add("Auto", typeof(int));
        auto.AutoIncrement = true;
        var payload = DataSetSerializer.Serialize(table);
        byte[] intColumn = [0x0A, 0x04, (byte)'A', (byte)'u', (byte)'t', (byte)'o', 0x10, 0x07]; // name "Auto", type INT32
        var at = payload.AsSpan().IndexOf(intColumn);
        Assert.True(at > 0, "the column's name and type tag were not found in the payload");
        payload[at + intColumn.Length - 1] = 17; // type STRING

        var refusal = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(payload));
        Assert.Contains("AutoIncrement", refusal.Message, StringComparison.Ordinal);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload));
    }

    /// <summary>A top-level Header written as a varint: the in-memory reader skipped it and loaded, the stream reader
    /// (which reads each top-level field by its length prefix) refused it. Both refuse it now, as Deserialize does.</summary>
    [Fact]
    public void A_top_level_field_that_is_not_length_delimited_is_refused_by_every_reader()
    {
        var payload = Payload();
        var fields = ProtoWire.Fields(payload);
        var header = fields.Single(f => f.Number == 4);
        var crafted = ProtoWire.Replace(payload, header, [.. ProtoWire.Tag(4, 0), .. ProtoWire.Varint(1)]);

        EveryReaderRefuses(crafted);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(crafted));
    }

    /// <summary>A payload ending in the tail's header without its length: protobuf-net's length-prefix reader reads
    /// the missing length as 0, so the stream reader loaded what the in-memory reader refused as truncated.</summary>
    [Fact]
    public void A_payload_ending_in_a_tail_header_without_its_length_is_refused_by_every_reader()
    {
        var payload = Payload();
        var tail = ProtoWire.Fields(payload).Single(f => f.Number == 6);
        byte[] crafted = [.. payload.AsSpan(0, tail.Start), .. ProtoWire.Tag(6, 2)];

        EveryReaderRefuses(crafted);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(new OneByteAtATimeStream(crafted)));
    }

    /// <summary>A row block whose length claims far more than the stream holds, read one byte per Read: the stream
    /// reader asked its buffer for room for the rest of the claim on every read and took a new 64 KB segment each time
    /// (14 MB for a 234-byte payload). It now allocates within the fuzzer's bound for the payload's size.</summary>
    [Fact]
    public void A_lying_row_block_length_read_byte_by_byte_costs_what_the_stream_supplies()
    {
        var payload = Payload();
        var rows = ProtoWire.Fields(payload).First(f => f.Number == 7);
        // The block claims 1 MB and the payload ends 300 bytes into it.
        var body = new byte[300];
        byte[] crafted = [.. payload.AsSpan(0, rows.Start), .. ProtoWire.Tag(7, 2), .. ProtoWire.Varint(1 << 20), .. body];

        var before = GC.GetAllocatedBytesForCurrentThread();
        Assert.Throws<DataSetSurrogateException>(() => ReaderContents.Read(DataSetSerializer.CreateReader(new OneByteAtATimeStream(crafted))));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < AllocationBound.For(crafted.Length), $"{allocated:N0} bytes allocated for a {crafted.Length}-byte payload");
    }

    private static byte[] Payload()
    {
        var table = new DataTable("T");
        table.Columns.Add("Name", typeof(string));
        table.Rows.Add("a");
        var dataSet = new DataSet("D");
        dataSet.Tables.Add(table);
        return DataSetSerializer.Serialize(dataSet);
    }

    private static void EveryReaderRefuses(byte[] payload)
    {
        Assert.Throws<DataSetSurrogateException>(() => ReaderContents.Read(DataSetSerializer.CreateReader(new ReadOnlySequence<byte>(payload))));
        Assert.Throws<DataSetSurrogateException>(() => ReaderContents.Read(DataSetSerializer.CreateReader(new MemoryStream(payload))));
        Assert.Throws<DataSetSurrogateException>(() => ReaderContents.Read(DataSetSerializer.CreateReader(new OneByteAtATimeStream(payload))));
    }
}
