using System.Buffers;
using System.Data;
using System.Diagnostics;
using System.Text;

namespace Surrogate.Tests;

/// <summary>What a payload can make the reader allocate or do stays proportional to its own size.</summary>
public sealed class ResourceLimitTests
{
    [Fact]
    public void A_huge_record_count_hint_on_a_wide_table_reserves_little()
    {
        var t = new DataTable("W");
        for (var c = 0; c < 500; c++)
        {
            t.Columns.Add("c" + c, typeof(long));
        }

        t.Rows.Add([.. Enumerable.Repeat((object)1L, 500)]);
        var hostile = ProtoWire.AppendInside(DataSetSerializer.Serialize(t), 5, [.. ProtoWire.Tag(12, 0), .. ProtoWire.Varint(long.MaxValue)]);
        DataSetSerializer.DeserializeTable(hostile); // warm up

        var before = GC.GetAllocatedBytesForCurrentThread();
        var result = DataSetSerializer.DeserializeTable(new ReadOnlySequence<byte>(hostile));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(1, result.Rows.Count);
        Assert.True(allocated < 32 << 20, $"allocated {allocated:N0} bytes for a {hostile.Length:N0}-byte payload");
    }

    [Fact]
    public void Row_blocks_of_a_table_without_values_cannot_claim_rows_they_do_not_pay_for()
    {
        // A zero-column table's block needs no column data, and no states when every row is Unchanged: six bytes
        // claiming 65,536 rows, repeated, once made millions of DataRows from a payload of under a kilobyte.
        var t = new DataTable("Z");
        t.Rows.Add();
        t.AcceptChanges();
        var payload = DataSetSerializer.Serialize(t);
        var fields = ProtoWire.Fields(payload);
        var block = ProtoWire.LengthDelimited(7, [.. ProtoWire.Tag(1, 0), .. ProtoWire.Varint(65_536)]);
        var firstBlock = fields.First(f => f.Number == 7);
        var tail = fields.Last(f => f.Number == 6);
        byte[] hostile = [.. payload[..firstBlock.Start], .. Enumerable.Range(0, 150).SelectMany(_ => block), .. payload[tail.Start..]];
        Assert.True(hostile.Length < 1000);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var watch = Stopwatch.StartNew();
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(new ReadOnlySequence<byte>(hostile)));
        watch.Stop();
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Contains("65536 rows", error.Message, StringComparison.Ordinal);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(1), $"took {watch.Elapsed}");
        Assert.True(allocated < 4 << 20, $"allocated {allocated:N0} bytes");

        using var reader = DataSetSerializer.CreateReader(new MemoryStream(hostile));
        Assert.Throws<DataSetSurrogateException>(() => reader.Read());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(10_000)]
    public void Tables_without_values_still_round_trip(int rows)
    {
        var ds = new DataSet("D");
        var empty = ds.Tables.Add("Empty");
        var computed = ds.Tables.Add("Computed");
        computed.Columns.Add("One", typeof(int), "1");
        for (var i = 0; i < rows; i++)
        {
            empty.Rows.Add();
            computed.Rows.Add();
        }

        ds.AcceptChanges();
        if (rows > 0)
        {
            empty.Rows.Add();
            empty.Rows[0].Delete();
        }

        var result = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds));
        Fixtures.DataSetAssert.Equivalent(ds, result);
        Assert.Equal(rows, result.Tables["Computed"]!.Rows.Count);
    }

    [Fact]
    public void A_few_rows_of_a_table_without_values_and_without_states_still_read()
    {
        // Writers before the size rule left states out when every row was Unchanged.
        var t = new DataTable("Z");
        var payload = DataSetSerializer.Serialize(t);
        var hostile = SecurityTests.InsertBeforeTail(payload, ProtoWire.LengthDelimited(7, [.. ProtoWire.Tag(1, 0), .. ProtoWire.Varint(5)]));
        Assert.Equal(5, DataSetSerializer.DeserializeTable(hostile).Rows.Count);
    }

    [Fact]
    public void A_string_over_MaxStringLength_is_refused_from_its_length_prefix_before_decoding()
    {
        var payload = WithValue(typeof(string), new string('x', 4 << 20));
        var options = SurrogateOptions.Default with { MaxStringLength = 1000 };
        var before = GC.GetAllocatedBytesForCurrentThread();
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload), options));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Contains(nameof(SurrogateOptions.MaxStringLength), error.Message, StringComparison.Ordinal);
        Assert.Contains("4194304", error.Message, StringComparison.Ordinal);
        Assert.True(allocated < 1 << 20, $"allocated {allocated:N0} bytes");
    }

    [Fact]
    public void MaxStringLength_counts_UTF8_bytes_as_documented()
    {
        var text = new string('€', 400); // 400 UTF-16 characters, 1,200 UTF-8 bytes
        var payload = WithValue(typeof(string), text);
        var options = SurrogateOptions.Default with { MaxStringLength = 1000 };
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, options));
        Assert.Contains("1200", error.Message, StringComparison.Ordinal);
        var fits = SurrogateOptions.Default with { MaxStringLength = Encoding.UTF8.GetByteCount(text) };
        Assert.Equal(text, DataSetSerializer.Deserialize(payload, fits).Tables[0].Rows[0][0]);
    }

    [Fact]
    public void A_byte_array_over_MaxBinaryLength_is_refused_before_it_is_allocated()
    {
        var payload = WithValue(typeof(byte[]), new byte[4 << 20]);
        var options = SurrogateOptions.Default with { MaxBinaryLength = 1000 };
        var before = GC.GetAllocatedBytesForCurrentThread();
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload), options));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Contains(nameof(SurrogateOptions.MaxBinaryLength), error.Message, StringComparison.Ordinal);
        Assert.True(allocated < 1 << 20, $"allocated {allocated:N0} bytes");
    }

    internal static byte[] WithValue(Type type, object value)
    {
        var ds = new DataSet("V");
        ds.Tables.Add("T").Columns.Add("C", type);
        ds.Tables[0].Rows.Add(value);
        return DataSetSerializer.Serialize(ds);
    }
}
