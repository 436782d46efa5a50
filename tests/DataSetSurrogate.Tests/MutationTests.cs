using System.Buffers;
using System.Data;
using System.Diagnostics;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>Tens of thousands of corrupted payloads: only the library's exception, never a hang.</summary>
public sealed class MutationTests
{
    private static readonly byte[][] Seeds =
    [
        .. new[] { "row-states", "primitive-edges", "sql-types", "constraints-and-relations", "expressions", "strings", "temporal" }
            .Select(n => DataSetSerializer.Serialize(FidelityFixtures.Create(n))),
        DataSetSerializer.Serialize(FidelityFixtures.Orders(50).CreateDataReader()),
        // Shapes that once let a small payload cost far more than its size: rows without values, a wide table's hint.
        DataSetSerializer.Serialize(WithoutValues()),
        DataSetSerializer.Serialize(Wide()),
    ];

    /// <summary>A hang fails the run (naming the input) instead of blocking it.</summary>
    private static readonly TimeSpan PerInputLimit = TimeSpan.FromSeconds(10);

    [Theory]
    [InlineData(1, "DataSet")]
    [InlineData(2, "Typed")]
    [InlineData(3, "Reader")]
    [InlineData(4, "Sequence")]
    public async Task Corrupted_payloads_raise_only_the_library_exception(int seed, string target)
    {
        var slowest = TimeSpan.Zero;
        var slowestInput = 0;
        var inputs = 0;
        foreach (var input in Mutations.Generate(Seeds, count: 6_000, seed))
        {
            // Timed inside the task: the wait for a pool thread (other tests run in parallel) is not the codec's.
            var read = Task.Run(() =>
            {
                var watch = Stopwatch.StartNew();
                var exception = Record.Exception(() => Read(input, target));
                return (Error: exception, Elapsed: watch.Elapsed);
            });
            if (await Task.WhenAny(read, Task.Delay(PerInputLimit)) != read)
            {
                Assert.Fail($"input {inputs + 1} took over {PerInputLimit}: {Convert.ToHexString(input.AsSpan(0, Math.Min(64, input.Length)))}...");
            }

            var (error, elapsed) = await read;
            inputs++;
            if (elapsed > slowest)
            {
                (slowest, slowestInput) = (elapsed, inputs);
            }

            if (error is not null and not DataSetSurrogateException)
            {
                Assert.Fail($"input {inputs} ({Convert.ToHexString(input.AsSpan(0, Math.Min(64, input.Length)))}...): {error}");
            }
        }

        Assert.True(slowest < TimeSpan.FromSeconds(2), $"slowest input ({slowestInput}) took {slowest}");
    }

    private static DataSet WithoutValues()
    {
        var ds = new DataSet("Z");
        var empty = ds.Tables.Add("Empty");
        var computed = ds.Tables.Add("Computed");
        computed.Columns.Add("One", typeof(int), "1");
        for (var i = 0; i < 40; i++)
        {
            empty.Rows.Add();
            computed.Rows.Add();
        }

        ds.AcceptChanges();
        return ds;
    }

    private static DataTable Wide()
    {
        var t = new DataTable("Wide");
        for (var c = 0; c < 200; c++)
        {
            t.Columns.Add("c" + c, typeof(long));
        }

        t.Rows.Add([.. Enumerable.Range(0, 200).Select(i => (object)(long)i)]);
        return t;
    }

    private static void Read(byte[] input, string target)
    {
        switch (target)
        {
            case "DataSet":
                DataSetSerializer.Deserialize(input);
                break;
            case "Typed":
                DataSetSerializer.Deserialize<OrdersTypedDataSet>(input);
                break;
            case "Reader":
                using (var reader = DataSetSerializer.CreateReader(new MemoryStream(input)))
                {
                    do
                    {
                        while (reader.Read())
                        {
                            for (var i = 0; i < reader.FieldCount; i++)
                            {
                                _ = reader.GetValue(i);
                            }
                        }
                    }
                    while (reader.NextResult());
                }

                break;
            default:
                DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(input));
                break;
        }
    }
}
