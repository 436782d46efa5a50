using System.Buffers;
using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>Every fixture through every API surface, compared field by field with the source.</summary>
public sealed class RoundTripTests
{
    public enum Surface { ByteArray, BufferWriter, Stream, StreamAsync, Sequence, SmallSegments, OneByteStream, OneByteStreamAsync }

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

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Fixture_round_trips(string fixture, Surface surface)
    {
        var source = FidelityFixtures.Create(fixture);
        var result = await RoundTrip(source, surface);
        DataSetAssert.Equivalent(source, result);
    }

    internal static async Task<DataSet> RoundTrip(DataSet source, Surface surface)
    {
        switch (surface)
        {
            case Surface.ByteArray:
                return DataSetSerializer.Deserialize(DataSetSerializer.Serialize(source));
            case Surface.BufferWriter:
            {
                var writer = new ArrayBufferWriter<byte>(16);
                DataSetSerializer.Serialize(writer, source);
                return DataSetSerializer.Deserialize(writer.WrittenSpan);
            }
            case Surface.Stream:
            {
                using var stream = new MemoryStream();
                DataSetSerializer.Serialize(stream, source);
                stream.Position = 0;
                return DataSetSerializer.Deserialize(stream);
            }
            case Surface.StreamAsync:
            {
                using var stream = new MemoryStream();
                await DataSetSerializer.SerializeAsync(stream, source);
                stream.Position = 0;
                return await DataSetSerializer.DeserializeAsync(stream);
            }
            case Surface.Sequence:
                return DataSetSerializer.Deserialize(AwkwardInput.Segmented(DataSetSerializer.Serialize(source), 4096));
            case Surface.SmallSegments:
                return DataSetSerializer.Deserialize(AwkwardInput.Segmented(DataSetSerializer.Serialize(source), 3));
            case Surface.OneByteStream:
                return DataSetSerializer.Deserialize(new OneByteAtATimeStream(DataSetSerializer.Serialize(source)));
            default:
                return await DataSetSerializer.DeserializeAsync(new OneByteAtATimeStream(DataSetSerializer.Serialize(source)));
        }
    }

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
