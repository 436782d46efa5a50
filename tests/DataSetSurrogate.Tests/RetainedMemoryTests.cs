using System.Data;
using System.Reflection;
using System.Runtime.CompilerServices;
using Surrogate.Rows;

namespace Surrogate.Tests;

/// <summary>
/// What the codec keeps between calls is bounded by the machine, not by the threads that called it: nothing is kept
/// per thread, and the block writers kept for the next payloads are few and small, however many threads wrote how
/// large a payload.
/// </summary>
public sealed class RetainedMemoryTests
{
    [Fact]
    public void The_codec_keeps_nothing_per_thread()
    {
        var perThread = typeof(DataSetSerializer).Assembly.GetTypes()
            .SelectMany(type => type.GetFields(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
                .Where(field => field.IsDefined(typeof(ThreadStaticAttribute)) || field.FieldType.IsGenericType && field.FieldType.GetGenericTypeDefinition() == typeof(ThreadLocal<>))
                .Select(field => $"{type.FullName}.{field.Name}"))
            .ToList();
        Assert.Empty(perThread);
    }

    [Fact]
    public void Large_payloads_on_many_threads_leave_at_most_a_few_small_writers_behind()
    {
        const int Threads = 8;
        var options = new SurrogateOptions { RowsPerBlock = SurrogateOptions.MaxRowsPerBlock };
        using var start = new Barrier(Threads);
        var workers = Enumerable.Range(0, Threads).Select(t => new Thread(() =>
        {
            var table = LargeTable(t);
            start.SignalAndWait();
            var payload = DataSetSerializer.Serialize(table, options);
            Assert.Equal(table.Rows.Count, DataSetSerializer.DeserializeTable(payload).Rows.Count);
            DataSetSerializer.Serialize(table);
        })).ToList();
        workers.ForEach(w => w.Start());
        workers.ForEach(w => w.Join());

        var bound = Environment.ProcessorCount * RowBlockWriter.MaxRetainedBytes;
        Assert.True(RowBlockWriter.PooledBytes <= bound, $"the pooled writers hold {RowBlockWriter.PooledBytes} bytes; at most {bound} may stay");
    }

    [Fact]
    public void A_writer_grown_past_the_bound_is_not_kept()
    {
        var writer = RowBlockWriter.Rent();
        var table = LargeTable(0);
        var rows = new DataRow[table.Rows.Count];
        table.Rows.CopyTo(rows, 0);
        var context = new TableWriteContext(table, standalone: true, SurrogateOptions.Default, new(), 0);
        WriteBlock(writer, context, rows);
        Assert.True(writer.RetainedBytes > RowBlockWriter.MaxRetainedBytes, $"a {rows.Length}-row block left only {writer.RetainedBytes} bytes in the writer");
        writer.Return();
        for (var i = 0; i < Environment.ProcessorCount + 1; i++)
        {
            Assert.NotSame(writer, RowBlockWriter.Rent());
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteBlock(RowBlockWriter writer, TableWriteContext context, DataRow[] rows)
    {
        var output = new System.Buffers.ArrayBufferWriter<byte>();
        var wire = new Wire.WireWriter(output);
        writer.WriteBlock(ref wire, context, rows, 0, rows.Length, 0);
        wire.Flush();
    }

    private static DataTable LargeTable(int seed)
    {
        var table = new DataTable("Large");
        table.Columns.Add("Id", typeof(long));
        table.Columns.Add("Name", typeof(string));
        table.Columns.Add("Amount", typeof(decimal));
        for (var i = 0; i < SurrogateOptions.MaxRowsPerBlock; i++)
        {
            table.Rows.Add((long)i * (seed + 1), "name " + (i % 5000), i / 7m);
        }

        return table;
    }
}
