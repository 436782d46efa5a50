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
