using System.Buffers;
using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// The payload is written straight into the spans of the caller's <see cref="IBufferWriter{T}"/>: the bytes must not
/// depend on how large those spans are, and row blocks must be handed on (Advance) one at a time, so a writer that
/// passes on what it is given holds about one block.
/// </summary>
public sealed class BufferWriterTests
{
    [Theory]
    [MemberData(nameof(FidelityFixtures.All), MemberType = typeof(FidelityFixtures))]
    public void The_bytes_do_not_depend_on_the_spans_the_writer_hands_out(string fixture)
    {
        var dataSet = FidelityFixtures.Create(fixture);
        var expected = DataSetSerializer.Serialize(dataSet);
        var stingy = new StingyBufferWriter();
        DataSetSerializer.Serialize(stingy, dataSet);
        Assert.Equal(expected, stingy.ToArray());
    }

    [Fact]
    public void Long_strings_and_wide_blocks_cross_many_small_spans_unchanged()
    {
        var table = new DataTable("Wide");
        table.Columns.Add("Text", typeof(string));
        table.Columns.Add("Bytes", typeof(byte[]));
        table.Columns.Add("Number", typeof(long));
        for (var i = 0; i < 3000; i++)
        {
            // Lengths around the one- and two-byte prefix boundaries, and one string long enough to be measured first.
            var text = i == 7 ? new string('é', 70_000) : new string((char)('a' + (i % 26)), (i * 37) % 300);
            table.Rows.Add(text, new byte[(i * 13) % 200], (long)i * i * (i % 2 == 0 ? 1 : -1));
        }

        var expected = DataSetSerializer.Serialize(table);
        var stingy = new StingyBufferWriter();
        DataSetSerializer.Serialize(stingy, table);
        Assert.Equal(expected, stingy.ToArray());
        DataSetAssert.Equivalent(table, DataSetSerializer.DeserializeTable(expected));
    }

    [Fact]
    public void Row_blocks_are_handed_on_one_at_a_time()
    {
        var table = new DataTable("Rows");
        table.Columns.Add("Id", typeof(int));
        table.Columns.Add("Name", typeof(string));
        for (var i = 0; i < 20_000; i++)
        {
            table.Rows.Add(i, "name " + i);
        }

        var options = new SurrogateOptions { RowsPerBlock = 1000 };
        var payload = DataSetSerializer.Serialize(table, options);
        var recording = new StingyBufferWriter();
        DataSetSerializer.Serialize(recording, table, options);

        // Start, schema, 20 blocks, tail: every block is advanced on its own, and none is held with the next.
        Assert.True(recording.Advances >= 23, $"{recording.Advances} advances for 20 blocks");
        Assert.True(recording.LargestAdvance < payload.Length / 10, $"one advance carried {recording.LargestAdvance} of {payload.Length} bytes");
    }

    [Fact]
    public async Task A_stream_gets_the_payload_block_by_block_whichever_way_it_is_written()
    {
        var table = new DataTable("Rows");
        table.Columns.Add("Id", typeof(int));
        table.Columns.Add("Name", typeof(string));
        for (var i = 0; i < 50_000; i++)
        {
            table.Rows.Add(i, "a longer name that takes some room " + i);
        }

        var payload = DataSetSerializer.Serialize(table);
        var sync = new WriteCountingStream();
        DataSetSerializer.Serialize(sync, table);
        var async = new WriteCountingStream();
        await DataSetSerializer.SerializeAsync(async, table);

        foreach (var stream in new[] { sync, async })
        {
            Assert.Equal(payload, stream.ToArray());
            Assert.True(stream.Writes >= 10, $"{stream.Writes} writes");
            Assert.True(stream.LargestWrite < payload.Length / 5, $"one write carried {stream.LargestWrite} of {payload.Length} bytes");
        }
    }

    /// <summary>
    /// Hands out spans of exactly the size asked for (at least one byte), and spoils the memory of the span it handed
    /// out last whenever it is asked for another, as a writer that reuses its memory may: a writer that kept using an
    /// old span, or expected what it wrote there without advancing to survive, writes different bytes.
    /// </summary>
    private sealed class StingyBufferWriter : IBufferWriter<byte>
    {
        private readonly List<byte> _written = [];
        private byte[] _span = [];

        public int Advances { get; private set; }

        public int LargestAdvance { get; private set; }

        public void Advance(int count)
        {
            _written.AddRange(_span.AsSpan(0, count));
            Advances++;
            LargestAdvance = Math.Max(LargestAdvance, count);
            Array.Fill(_span, (byte)0xCC);
        }

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            Array.Fill(_span, (byte)0xEE);
            _span = new byte[Math.Max(sizeHint, 1)];
            return _span;
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

        public byte[] ToArray() => _written.ToArray();
    }

    private sealed class WriteCountingStream : Stream
    {
        private readonly MemoryStream _written = new();

        public int Writes { get; private set; }

        public int LargestWrite { get; private set; }

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => _written.Length;

        public override long Position { get => _written.Length; set => throw new NotSupportedException(); }

        public byte[] ToArray() => _written.ToArray();

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            Writes++;
            LargestWrite = Math.Max(LargestWrite, buffer.Length);
            _written.Write(buffer);
        }

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            Write(buffer.Span);
            return ValueTask.CompletedTask;
        }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
