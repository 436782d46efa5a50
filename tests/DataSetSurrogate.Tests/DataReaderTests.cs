using System.Data;
using System.Data.Common;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>IDataReader in, forward-only DbDataReader out, with memory that does not grow with the row count.</summary>
[Collection(SerialCollection.Name)] // measures the process-wide heap
public sealed class DataReaderTests
{
    [Theory]
    [InlineData("orders")]
    [InlineData("primitive-edges")]
    [InlineData("strings")]
    [InlineData("temporal")]
    public void A_data_reader_serializes_every_result_set_and_reads_back_as_tables(string fixture)
    {
        var source = FidelityFixtures.Create(fixture);
        var payload = DataSetSerializer.Serialize(source.CreateDataReader());
        var result = DataSetSerializer.Deserialize(payload);
        Assert.Equal(source.Tables.Count, result.Tables.Count);
        for (var t = 0; t < source.Tables.Count; t++)
        {
            AssertSameCells(Loaded(source.Tables[t]), result.Tables[t]);
        }
    }

    [Fact]
    public void CreateReader_streams_the_non_deleted_rows_of_each_table()
    {
        var source = FidelityFixtures.Create("orders");
        var payload = DataSetSerializer.Serialize(source);
        using var reader = DataSetSerializer.CreateReader(new MemoryStream(payload));
        foreach (DataTable table in source.Tables)
        {
            var loaded = new DataTable();
            loaded.Load(new NonClosingReader(reader));
            AssertSameCells(Loaded(table), loaded);
        }

        Assert.False(reader.NextResult());
    }

    [Fact]
    public void CreateReader_exposes_names_types_and_typed_getters()
    {
        var source = FidelityFixtures.Create("primitive-edges").Tables[0];
        using var reader = DataSetSerializer.CreateReader(new System.Buffers.ReadOnlySequence<byte>(DataSetSerializer.Serialize(source)));
        Assert.Equal(source.Columns.Count, reader.FieldCount);
        for (var i = 0; i < reader.FieldCount; i++)
        {
            Assert.Equal(source.Columns[i].ColumnName, reader.GetName(i));
            Assert.Equal(source.Columns[i].DataType, reader.GetFieldType(i));
        }

        Assert.True(reader.Read());
        Assert.Equal(int.MinValue, reader.GetInt32(reader.GetOrdinal("Int32")));
        Assert.Equal(long.MinValue, reader.GetInt64(reader.GetOrdinal("Int64")));
        Assert.Equal(decimal.MinValue, reader.GetDecimal(reader.GetOrdinal("Decimal")));
    }

    [Fact]
    public void Streaming_a_million_rows_keeps_memory_flat()
    {
        static long PeakLiveBytes(int rows)
        {
            var output = new CountingSink();
            GC.Collect();
            var baseline = GC.GetTotalMemory(forceFullCollection: true);
            DataSetSerializer.Serialize(output, new SyntheticReader(rows));
            Assert.True(output.Length > rows, "the payload holds the rows");
            return output.PeakLiveBytes - baseline;
        }

        var small = PeakLiveBytes(100_000);
        var large = PeakLiveBytes(1_000_000);
        // Live memory while writing is bounded by one row block, whatever the row count.
        Assert.True(large < 32L << 20, $"peak live memory writing 1,000,000 rows: {large:N0} bytes");
        Assert.True(large < small * 2 + (4 << 20), $"100k rows: {small:N0} bytes, 1M rows: {large:N0} bytes");
    }

    [Fact]
    public void Read_and_typed_getters_allocate_nothing_per_row()
    {
        const int Rows = 100_000;
        var table = new DataTable("Typed");
        table.Columns.Add("I", typeof(int));
        table.Columns.Add("L", typeof(long));
        table.Columns.Add("D", typeof(double));
        table.Columns.Add("M", typeof(decimal));
        table.Columns.Add("T", typeof(DateTime));
        table.Columns.Add("G", typeof(Guid));
        table.Columns.Add("B", typeof(bool));
        table.Columns.Add("S", typeof(string));
        string[] cities = ["Oslo", "Lima", "Pune"];
        for (var i = 0; i < Rows; i++)
        {
            table.Rows.Add(i, -i * 3L, i * 0.5, i * 1.25m, new DateTime(2020, 1, 1).AddMinutes(i), new Guid(i, 0, 0, new byte[8]), i % 2 == 0, cities[i % 3]);
        }

        var payload = new System.Buffers.ReadOnlySequence<byte>(DataSetSerializer.Serialize(table));
        ReadTyped(payload); // warm up
        var before = GC.GetAllocatedBytesForCurrentThread();
        var sum = ReadTyped(payload);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal((long)Rows * (Rows - 1) / 2, sum);
        // Buffers grow to one block's size once; boxing a row's eight values would cost about 200 bytes.
        Assert.True(allocated < (Rows * 2) + (1 << 20), $"{allocated:N0} bytes allocated reading {Rows:N0} rows with typed getters ({(double)allocated / Rows:F1} per row)");
    }

    private static long ReadTyped(System.Buffers.ReadOnlySequence<byte> payload)
    {
        using var reader = DataSetSerializer.CreateReader(payload);
        long sum = 0;
        while (reader.Read())
        {
            sum += reader.GetInt32(0);
            _ = reader.GetInt64(1) + reader.GetDouble(2);
            _ = reader.GetDecimal(3);
            _ = reader.GetDateTime(4);
            _ = reader.GetGuid(5);
            _ = reader.GetBoolean(6) && reader.GetString(7).Length > 0 && reader.GetFieldValue<int>(0) >= 0 && !reader.IsDBNull(7);
        }

        return sum;
    }

    [Fact]
    public void Every_getter_needs_a_current_row()
    {
        var source = FidelityFixtures.Create("primitive-edges").Tables[0];
        using var reader = DataSetSerializer.CreateReader(new System.Buffers.ReadOnlySequence<byte>(DataSetSerializer.Serialize(source)));
        AssertNoRow(reader, "before the first Read");
        for (var row = 0; reader.Read(); row++)
        {
            Assert.Equal(DataSetAssert.Describe(source.Rows[row][0]), DataSetAssert.Describe(reader.GetValue(0)));
        }

        AssertNoRow(reader, "after Read returned false");
        Assert.False(reader.NextResult());
        AssertNoRow(reader, "after the last result");
    }

    private static void AssertNoRow(DbDataReader reader, string when)
    {
        Action[] getters =
        [
            () => reader.GetValue(0), () => _ = reader[0], () => reader.GetValues(new object[reader.FieldCount]), () => reader.IsDBNull(0),
            () => reader.GetInt32(reader.GetOrdinal("Int32")), () => reader.GetFieldValue<int>(reader.GetOrdinal("Int32")),
            () => reader.GetChar(reader.GetOrdinal("Char")), () => reader.GetDecimal(reader.GetOrdinal("Decimal")),
        ];
        foreach (var getter in getters)
        {
            var error = Record.Exception(getter);
            Assert.True(error is InvalidOperationException and not ObjectDisposedException, $"{when}: {error?.GetType().Name ?? "a value was returned"}");
        }
    }

    [Fact]
    public void A_getter_for_another_type_or_a_null_cell_is_an_InvalidCastException_as_DataTableReader_gives()
    {
        var table = new DataTable("C");
        table.Columns.Add("I", typeof(int));
        table.Columns.Add("S", typeof(string));
        table.Columns.Add("O", typeof(object));
        table.Rows.Add(1, DBNull.Value, 7);
        using (var expected = table.CreateDataReader())
        {
            Assert.True(expected.Read());
            Assert.Throws<InvalidCastException>(() => expected.GetInt64(0));
            Assert.Equal(7, expected.GetInt32(2));
        }

        using var reader = DataSetSerializer.CreateReader(new System.Buffers.ReadOnlySequence<byte>(DataSetSerializer.Serialize(table)));
        Assert.True(reader.Read());
        Assert.Throws<InvalidCastException>(() => reader.GetInt64(0));
        Assert.Throws<InvalidCastException>(() => reader.GetString(0));
        Assert.Throws<InvalidCastException>(() => reader.GetString(1));
        Assert.True(reader.IsDBNull(1));
        Assert.Equal(DBNull.Value, reader.GetValue(1));
        Assert.Equal(1, reader.GetInt32(0));
        Assert.Equal(1, reader.GetFieldValue<int>(0));
        Assert.Equal(7, reader.GetInt32(2));
        Assert.Equal(7, reader.GetFieldValue<int>(2));
        Assert.Throws<InvalidCastException>(() => reader.GetString(2));
    }

    /// <summary>
    /// The oracle for reader paths: what DataTable.Load makes of the source's own reader. A reader carries no
    /// DateTimeMode, so the loading table's column semantics (not the codec) decide a DateTime's Kind.
    /// </summary>
    private static DataTable Loaded(DataTable source)
    {
        var table = new DataTable();
        table.Load(source.CreateDataReader());
        return table;
    }

    private static void AssertSameCells(DataTable expected, DataTable actual)
    {
        var live = expected.Rows.Cast<DataRow>().Where(r => r.RowState != DataRowState.Deleted).ToArray();
        Assert.Equal(expected.Columns.Count, actual.Columns.Count);
        Assert.Equal(live.Length, actual.Rows.Count);
        for (var r = 0; r < live.Length; r++)
        {
            for (var c = 0; c < expected.Columns.Count; c++)
            {
                Assert.Equal(DataSetAssert.Describe(live[r][c]), DataSetAssert.Describe(actual.Rows[r][c]));
            }
        }
    }

    /// <summary>DataTable.Load closes the reader at the end of a result set; keep it open for the next one.</summary>
    private sealed class NonClosingReader(DbDataReader inner) : DbDataReaderWrapper(inner)
    {
        public override void Close() { }
    }

    private sealed class CountingSink : Stream
    {
        private long length;
        private int writes;

        /// <summary>Live heap after a full collection, sampled every few writes.</summary>
        public long PeakLiveBytes { get; private set; }

        private void Sample()
        {
            if (writes++ % 4 == 0)
            {
                PeakLiveBytes = Math.Max(PeakLiveBytes, GC.GetTotalMemory(forceFullCollection: true));
            }
        }

        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => length;
        public override long Position { get => length; set => throw new NotSupportedException(); }
        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            length += buffer.Length;
            Sample();
        }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
