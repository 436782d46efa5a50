using System.Buffers;
using System.Data;
using System.Data.SqlTypes;
using System.Globalization;
using System.Numerics;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// Object columns travel as a type tag per cell plus the value in its type's own streams: a cell costs about what a
/// cell of a typed column costs, on the wire and in memory.
/// </summary>
[Collection(SerialCollection.Name)] // measures allocations against a steady state
public sealed class ObjectColumnTests
{
    private const int Rows = 20_000;

    [Fact]
    public void Writing_an_object_column_allocates_next_to_nothing_per_row_and_its_payload_stays_close_to_a_typed_column()
    {
        var objects = Column(typeof(object));
        var ints = Column(typeof(int));
        var writer = new ArrayBufferWriter<byte>(1 << 20);
        DataSetSerializer.Serialize(writer, objects); // warm up: per-thread buffers reach their size
        writer.Clear();

        var before = GC.GetAllocatedBytesForCurrentThread();
        DataSetSerializer.Serialize(writer, objects);
        var perRow = (double)(GC.GetAllocatedBytesForCurrentThread() - before) / Rows;
        var objectBytes = writer.WrittenCount;

        Assert.True(perRow < 8, $"{perRow:F1} bytes allocated per row writing an object column (an int column's boxes cost 24)");
        var intBytes = DataSetSerializer.Serialize(ints).Length;
        Assert.True(objectBytes < intBytes * 1.5, $"object column {objectBytes:N0} bytes, int column {intBytes:N0} bytes for the same values");
        Fixtures.DataSetAssert.Equivalent(objects, DataSetSerializer.DeserializeTable(writer.WrittenSpan));
    }

    [Fact]
    public void Every_value_type_round_trips_mixed_in_one_column_across_blocks()
    {
        object[] values =
        [
            true, 'x', (sbyte)-5, (byte)250, (short)-300, (ushort)60_000, -70_000, 4_000_000_000u, long.MinValue, ulong.MaxValue,
            1.5f, double.NaN, 1.10m, new DateTime(2024, 2, 29, 1, 2, 3, DateTimeKind.Local), new DateTimeOffset(2024, 1, 1, 0, 0, 0, TimeSpan.FromHours(-3)),
            TimeSpan.FromTicks(-1), "text", "", Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"), new byte[] { 0, 1, 2 }, Array.Empty<byte>(),
            BigInteger.Parse("-123456789012345678901234567890", CultureInfo.InvariantCulture), new Uri("../relative", UriKind.Relative),
            new DateOnly(1, 1, 1), new TimeOnly(23, 59), new SqlBinary([9]), SqlBoolean.True, new SqlByte(7), new SqlBytes(new byte[] { 3 }),
            new SqlChars("chars"), new SqlDateTime(2000, 1, 1), new SqlDecimal(12.345m), new SqlDouble(2.5), new SqlGuid(Guid.Empty),
            new SqlInt16(-2), new SqlInt32(-3), new SqlInt64(-4), new SqlMoney(5.25m), new SqlSingle(6.5f), new SqlString("s", 1055),
        ];
        var table = new DataTable("Mixed");
        table.Columns.Add("O", typeof(object));
        for (var i = 0; i < 300; i++)
        {
            table.Rows.Add(i % 7 == 0 ? DBNull.Value : values[i % values.Length]);
        }

        table.AcceptChanges();
        table.Rows[3]["O"] = "changed";
        var options = SurrogateOptions.Default with { RowsPerBlock = 64 };
        var payload = DataSetSerializer.Serialize(table, options);
        DataSetAssert.Equivalent(table, DataSetSerializer.DeserializeTable(payload));

        using var reader = DataSetSerializer.CreateReader(new ReadOnlySequence<byte>(payload));
        for (var i = 0; reader.Read(); i++)
        {
            Assert.Equal(DataSetAssert.Describe(table.Rows[i]["O"]), DataSetAssert.Describe(reader.GetValue(0)));
        }
    }

    /// <summary>Writers before the tag stream sent one Value message per cell; that file is kept as they wrote it.</summary>
    [Fact]
    public void Object_cells_written_as_value_messages_still_read()
    {
        var culture = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("en-US"); // that writer left out a locale equal to its culture
        try
        {
            var payload = File.ReadAllBytes(Path.Combine(RepositoryPaths.TestSource, "Golden", "compat", "object-column-as-value-messages.bin"));
            Assert.Contains(ProtoWire.Fields(ProtoWire.Fields(payload).Where(f => f.Number == 7).Select(f => payload[f.ValueStart..f.End]).First()), f => f.Number == 3);
            DataSetAssert.Equivalent(FidelityFixtures.Create("object-column"), DataSetSerializer.Deserialize(payload));
        }
        finally
        {
            CultureInfo.CurrentCulture = culture;
        }
    }

    private static DataTable Column(Type type)
    {
        var table = new DataTable("T");
        table.Columns.Add("C", type);
        for (var i = 0; i < Rows; i++)
        {
            table.Rows.Add(i * 7919 % 100_000);
        }

        table.AcceptChanges();
        return table;
    }
}
