using System.Data;

namespace Surrogate.Tests;

/// <summary>
/// SerializeAsync of a data reader streams: bytes reach the destination while the reader is still being read, and a
/// destination that fails stops the reading instead of letting it drain into nowhere.
/// </summary>
public sealed class AsyncStreamingTests
{
    /// <summary>
    /// About 7 MB of payload. The writing thread can run ahead of the destination by the pipe's 1 MiB plus one block
    /// (about 70,000 rows) and then waits, however late the copy to the destination starts: the first bytes must
    /// arrive before half the rows are read on any machine (with 120,000 rows, a slow start of the copy made it 61,440).
    /// </summary>
    private const int Rows = 400_000;

    [Fact]
    public async Task Bytes_reach_the_destination_before_the_reader_is_exhausted_and_the_payload_reads_back()
    {
        var reader = new SyntheticReader(Rows);
        var destination = new RecordingStream(() => reader.RowsRead);
        await DataSetSerializer.SerializeAsync(destination, reader);

        Assert.True(destination.RowsReadAtFirstWrite < Rows / 2,
            $"the first bytes arrived only after {destination.RowsReadAtFirstWrite} of {Rows} rows were read: the payload was buffered whole");
        Assert.True(destination.LargestWrite <= 2 << 20, $"one write carried {destination.LargestWrite} bytes");
        var table = DataSetSerializer.Deserialize(destination.ToArray()).Tables[0];
        Assert.Equal(Rows, table.Rows.Count);
        Assert.Equal(Rows - 1, table.Rows[Rows - 1]["Id"]);
    }

    [Fact]
    public async Task A_failing_destination_fails_the_call_and_stops_reading()
    {
        var reader = new SyntheticReader(Rows);
        var destination = new RecordingStream(() => reader.RowsRead) { FailAfterWrites = 2 };
        await Assert.ThrowsAsync<IOException>(() => DataSetSerializer.SerializeAsync(destination, reader).AsTask());
        Assert.True(reader.RowsRead < Rows, "the reader was drained although nobody took the payload");
    }

    private sealed class RecordingStream(Func<int> rowsRead) : MemoryStream
    {
        private int writes;

        public int RowsReadAtFirstWrite { get; private set; } = -1;

        public int LargestWrite { get; private set; }

        public int FailAfterWrites { get; init; } = int.MaxValue;

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            Record(buffer.Length);
            return base.WriteAsync(buffer, cancellationToken);
        }

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            Record(count);
            return base.WriteAsync(buffer, offset, count, cancellationToken);
        }

        private void Record(int count)
        {
            if (++writes > FailAfterWrites)
            {
                throw new IOException("The destination went away.");
            }

            if (RowsReadAtFirstWrite < 0)
            {
                RowsReadAtFirstWrite = rowsRead();
            }

            LargestWrite = Math.Max(LargestWrite, count);
        }
    }
}
