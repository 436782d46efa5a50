using System.Buffers;
using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>Every fixture through every API surface, compared field by field with the source.</summary>
public sealed class RoundTripTests
{
    public enum Surface { ByteArray, Span, MemorySlice, BufferWriter, Stream, StreamAsync, Sequence, SmallSegments, OneByteStream, OneByteStreamAsync }

    public static TheoryData<string, Surface> Cases()
    {
        var data = new TheoryData<string, Surface>();
        foreach (var fixture in FidelityFixtures.All.Select(f => (string)f[0]))
        {
            foreach (var surface in Enum.GetValues<Surface>())
            {
                var slow = surface is Surface.OneByteStream or Surface.OneByteStreamAsync or Surface.SmallSegments;
                if (!slow || fixture is not ("orders" or "binary-and-big" or "strings"))
                {
                    data.Add(fixture, surface);
                }
            }
        }

        return data;
    }

    /// <summary>
    /// Each case runs twice, under different cultures for making the fixture, writing it and reading it (a DataSet
    /// whose Locale was never set takes the culture current when it is made, and must come back with it): made and
    /// written under tr-TR and read under en-US; made under en-US, written under ja-JP and read under de-DE.
    /// </summary>
    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Fixture_round_trips(string fixture, Surface surface)
    {
        foreach (var (made, written, read) in new[] { ("tr-TR", "tr-TR", "en-US"), ("en-US", "ja-JP", "de-DE") })
        {
            var source = Cultures.Under(made, () => FidelityFixtures.Create(fixture));
            var payload = await Cultures.Under(written, () => Write(source, surface));
            var result = await Cultures.Under(read, () => Read(payload, surface));
            DataSetAssert.Equivalent(source, result);
        }
    }

    /// <summary>Writes through the surface's write API (the culture set around the call flows into its awaits).</summary>
    private static async Task<byte[]> Write(DataSet source, Surface surface)
    {
        switch (surface)
        {
            case Surface.BufferWriter:
            {
                var writer = new ArrayBufferWriter<byte>(16);
                DataSetSerializer.Serialize(writer, source);
                return writer.WrittenSpan.ToArray();
            }
            case Surface.Stream:
            {
                using var stream = new MemoryStream();
                DataSetSerializer.Serialize(stream, source);
                return stream.ToArray();
            }
            case Surface.StreamAsync:
            {
                using var stream = new MemoryStream();
                await DataSetSerializer.SerializeAsync(stream, source);
                return stream.ToArray();
            }
            default:
                return DataSetSerializer.Serialize(source);
        }
    }

    /// <summary>Reads through the surface's read API.</summary>
    private static async Task<DataSet> Read(byte[] payload, Surface surface) => surface switch
    {
        Surface.ByteArray => DataSetSerializer.Deserialize(payload),
        Surface.BufferWriter or Surface.Span => DataSetSerializer.Deserialize(payload.AsSpan()),
        Surface.MemorySlice => DataSetSerializer.Deserialize(InTheMiddle(payload)),
        Surface.Stream => DataSetSerializer.Deserialize(new MemoryStream(payload)),
        Surface.StreamAsync => await DataSetSerializer.DeserializeAsync(new MemoryStream(payload)),
        Surface.Sequence => DataSetSerializer.Deserialize(AwkwardInput.Segmented(payload, 4096)),
        Surface.SmallSegments => DataSetSerializer.Deserialize(AwkwardInput.Segmented(payload, 3)),
        Surface.OneByteStream => DataSetSerializer.Deserialize(new OneByteAtATimeStream(payload)),
        _ => await DataSetSerializer.DeserializeAsync(new OneByteAtATimeStream(payload)),
    };

    [Fact]
    public void Segments_of_every_size_read_the_same()
    {
        var source = FidelityFixtures.Create("row-states");
        var payload = DataSetSerializer.Serialize(source);
        for (var split = 1; split < payload.Length; split += Math.Max(1, payload.Length / 97))
        {
            DataSetAssert.Equivalent(source, DataSetSerializer.Deserialize(AwkwardInput.Segmented(payload, split)));
        }
    }

    /// <summary>The payload in the middle of a larger array, with bytes around it that are no payload.</summary>
    private static ReadOnlyMemory<byte> InTheMiddle(byte[] payload)
    {
        var larger = new byte[payload.Length + 20];
        larger.AsSpan().Fill(0xFF);
        payload.CopyTo(larger, 7);
        return larger.AsMemory(7, payload.Length);
    }

    [Fact]
    public async Task Every_table_entry_point_reads_the_same()
    {
        var source = FidelityFixtures.Create("row-errors").Tables[0];
        var payload = DataSetSerializer.Serialize(source);
        var into = new DataTable();
        DataSetSerializer.DeserializeInto(InTheMiddle(payload), into);
        var intoFromSpan = new DataTable();
        DataSetSerializer.DeserializeInto(payload.AsSpan(), intoFromSpan);
        var intoDataSet = new DataSet();
        DataSetSerializer.DeserializeInto(InTheMiddle(payload), intoDataSet);
        DataTable[] results =
        [
            DataSetSerializer.DeserializeTable(payload),
            DataSetSerializer.DeserializeTable(payload.AsSpan()),
            DataSetSerializer.DeserializeTable(InTheMiddle(payload)),
            DataSetSerializer.DeserializeTable<DataTable>(InTheMiddle(payload)),
            DataSetSerializer.DeserializeTable<DataTable>(payload.AsSpan()),
            await DataSetSerializer.DeserializeTableAsync(new OneByteAtATimeStream(payload)),
            await DataSetSerializer.DeserializeTableAsync<DataTable>(new OneByteAtATimeStream(payload)),
            Assert.Single(DataSetSerializer.Deserialize<DataSet>(InTheMiddle(payload)).Tables.Cast<DataTable>()),
            Assert.Single(intoDataSet.Tables.Cast<DataTable>()),
            into,
            intoFromSpan,
        ];
        foreach (var result in results)
        {
            DataSetAssert.Equivalent(source, result);
        }
    }

    [Fact]
    public void A_table_round_trips_as_a_table()
    {
        var source = FidelityFixtures.Create("row-errors").Tables[0];
        var result = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(source));
        DataSetAssert.Equivalent(source, result);
        Assert.Null(result.DataSet);
    }

    [Fact]
    public void A_table_payload_read_as_a_dataset_holds_that_table()
    {
        var source = FidelityFixtures.Create("strings").Tables[0];
        var result = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(source));
        DataSetAssert.Equivalent(source, Assert.Single(result.Tables.Cast<DataTable>()));
    }

    [Fact]
    public void A_dataset_with_two_tables_is_not_a_table()
    {
        var payload = DataSetSerializer.Serialize(FidelityFixtures.Create("row-states"));
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(payload));
    }

    [Fact]
    public void A_typed_dataset_comes_back_typed_with_working_accessors()
    {
        var source = OrdersTypedDataSet.CreateSample();
        var result = DataSetSerializer.Deserialize<OrdersTypedDataSet>(DataSetSerializer.Serialize(source));
        Assert.IsType<OrdersTypedDataSet>(result);
        DataSetAssert.Equivalent(source, result);
        Assert.Same(result.Tables["Order"], result.Order);
        Assert.Equal("renamed", result.Order[0].Customer);
        Assert.Single(result.Order[0].GetLineRows());
        Assert.Equal(1.25m, result.Order[0].GetLineRows()[0].Price);
    }

    [Fact]
    public void An_untyped_payload_loads_into_a_typed_target()
    {
        var untyped = new DataSet();
        untyped.Merge(OrdersTypedDataSet.CreateSample());
        var target = new OrdersTypedDataSet();
        DataSetSerializer.DeserializeInto(DataSetSerializer.Serialize(untyped), target);
        Assert.Equal(untyped.Tables["Order"]!.Rows.Count, target.Order.Rows.Count);
        Assert.Equal("renamed", target.Order[0].Customer);
    }

    [Fact]
    public void A_payload_whose_columns_do_not_fit_the_typed_target_is_refused()
    {
        var other = new DataSet("OrdersTypedDataSet");
        other.Tables.Add("Order").Columns.Add("OrderId", typeof(string));
        Assert.Throws<DataSetSurrogateException>(() =>
            DataSetSerializer.Deserialize<OrdersTypedDataSet>(DataSetSerializer.Serialize(other)));
    }

    [Fact]
    public void A_large_wide_table_round_trips()
    {
        var source = FidelityFixtures.WideNumeric(100_000);
        DataSetAssert.Equivalent(source, DataSetSerializer.Deserialize(DataSetSerializer.Serialize(source)));
    }
}
