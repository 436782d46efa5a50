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

    /// <summary>A column with an empty name: Deserialize loaded it as "Column1" (DataTable names such a column
    /// itself) while the data reader showed it empty. No writer sends one, so every entry point refuses it.</summary>
    [Fact]
    public void A_column_without_a_name_is_refused_by_every_entry_point()
    {
        var payload = Payload();
        var table = ProtoWire.Fields(payload).Single(f => f.Number == 5);
        var tableBody = payload[table.ValueStart..table.End];
        var column = ProtoWire.Fields(tableBody).First(f => f.Number == 9);
        var columnBody = tableBody[column.ValueStart..column.End];
        var name = ProtoWire.Fields(columnBody).Single(f => f.Number == 1);
        var unnamed = ProtoWire.Replace(columnBody, name, ProtoWire.LengthDelimited(1, []));
        var crafted = ProtoWire.Replace(payload, table, ProtoWire.LengthDelimited(5, ProtoWire.Replace(tableBody, column, ProtoWire.LengthDelimited(9, unnamed))));

        EveryReaderRefuses(crafted);
        Assert.Contains("no name", Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(crafted)).Message, StringComparison.Ordinal);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(crafted));
    }

    /// <summary>DataTable's Double and Single storage turn -0.0 into 0.0, so a payload holding -0.0 loaded as 0.0
    /// while the data reader showed -0.0. The reader shows what the loaded DataSet holds; object and SqlDouble
    /// columns keep -0.0 in both.</summary>
    [Fact]
    public void The_reader_shows_negative_zero_in_double_and_single_columns_as_the_loaded_dataset_does()
    {
        var table = new DataTable("T");
        table.Columns.Add("D", typeof(double));
        table.Columns.Add("F", typeof(float));
        table.Columns.Add("O", typeof(object));
        table.Rows.Add(2.5d, 2.5f, -0.0d);
        var payload = DataSetSerializer.Serialize(table);
        Replace(payload, BitConverter.GetBytes(2.5d), BitConverter.GetBytes(-0.0d));
        Replace(payload, BitConverter.GetBytes(2.5f), BitConverter.GetBytes(-0.0f));

        var loaded = DataSetSerializer.DeserializeTable(payload).Rows[0];
        Assert.Equal(0L, BitConverter.DoubleToInt64Bits((double)loaded["D"]));
        Assert.Equal(0, BitConverter.SingleToInt32Bits((float)loaded["F"]));
        using var reader = DataSetSerializer.CreateReader(payload);
        Assert.True(reader.Read());
        Assert.Equal(BitConverter.DoubleToInt64Bits((double)loaded["D"]), BitConverter.DoubleToInt64Bits(reader.GetDouble(0)));
        Assert.Equal(BitConverter.DoubleToInt64Bits((double)loaded["D"]), BitConverter.DoubleToInt64Bits((double)reader.GetValue(0)));
        Assert.Equal(BitConverter.SingleToInt32Bits((float)loaded["F"]), BitConverter.SingleToInt32Bits(reader.GetFloat(1)));
        Assert.Equal(BitConverter.DoubleToInt64Bits(-0.0d), BitConverter.DoubleToInt64Bits((double)loaded["O"]));
        Assert.Equal(BitConverter.DoubleToInt64Bits(-0.0d), BitConverter.DoubleToInt64Bits((double)reader.GetValue(2)));
    }

    private static void Replace(byte[] payload, byte[] value, byte[] replacement)
    {
        var at = payload.AsSpan().IndexOf(value);
        Assert.True(at > 0, "the value was not found in the payload");
        replacement.CopyTo(payload, at);
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
