using System.Buffers;

namespace Surrogate.Tests;

/// <summary>
/// Decoding a payload costs memory in proportion to its size, whatever its shape: the bytes allocated on the decoding
/// thread stay under a fixed multiple of the payload's length (plus a constant), for each read path. Work is covered
/// by the same numbers: every super-linear path found so far also allocated super-linearly, and the per-input guard
/// turns a hang into a failure.
/// </summary>
public sealed class DecodeCostTests
{
    /// <summary>
    /// Building a DataSet: every row is a DataRow (about 170 bytes with its record and index slots), and a row may cost
    /// one bit of the payload (a null-bitmap bit): 8 rows per byte. Indexes and computed cells come on top, held to
    /// <see cref="DerivedWorkPerByte"/> entries of about 40 bytes per payload byte by the reader's derived-work rule.
    /// </summary>
    private const long DataSetBytesPerByte = 8 * 170 + DerivedWorkPerByte * 40;

    /// <summary>The reader's rule (docs/security.md): index entries and computed cells per payload byte.</summary>
    private const long DerivedWorkPerByte = 16;

    /// <summary>
    /// The forward-only reader keeps one block: a string or byte array per value (24 bytes for one that costs two),
    /// its slot, and the box GetValue returns for a value type.
    /// </summary>
    private const long ReaderBytesPerByte = 64;

    /// <summary>Fixed costs: buffers sized once per payload, first-use initialisation of System.Data's statics.</summary>
    private const long Constant = 2 << 20;

    /// <summary>Only a hang signal: the slowest shape takes well under a second when decoding is linear.</summary>
    private static readonly TimeSpan HangLimit = TimeSpan.FromSeconds(60);

    public static TheoryData<string> Shapes() => [.. CraftedPayloads.Names];

    [Theory]
    [MemberData(nameof(Shapes))]
    public Task A_DataSet_costs_a_fixed_multiple_of_the_payload(string shape) =>
        AssertBounded(shape, DataSetBytesPerByte, payload => DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload)));

    [Theory]
    [MemberData(nameof(Shapes))]
    public Task The_data_reader_costs_a_fixed_multiple_of_the_payload(string shape) =>
        AssertBounded(shape, ReaderBytesPerByte, payload =>
        {
            using var reader = DataSetSerializer.CreateReader(new MemoryStream(payload));
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
        });

    /// <summary>
    /// A compression bomb is refused by the block's declared raw length, before anything is allocated for it: the
    /// decoding thread allocates about what the payload itself holds, not what the block claims.
    /// </summary>
    [Theory]
    [InlineData("compressed-bomb-over-the-expansion-rule", "more than 1024 times its size")]
    [InlineData("compressed-block-over-max-total-bytes", nameof(SurrogateOptions.MaxTotalBytes))]
    public void A_bomb_is_refused_by_its_declared_length_without_allocating_for_it(string shape, string says)
    {
        var payload = CraftedPayloads.Create(shape);
        var before = GC.GetAllocatedBytesForCurrentThread();
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload)));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Contains(says, error.Message, StringComparison.Ordinal);
        Assert.True(allocated <= (2L * payload.Length) + Constant, $"{shape}: {allocated:N0} bytes allocated for a {payload.Length:N0}-byte payload");
    }

    /// <summary>
    /// Index entries and computed cells cost no payload bytes, so they are held to 16 per payload byte: over the rule,
    /// the reader refuses before building them. The forward-only reader builds no constraints but shows expression
    /// columns, whose cells a consumer visits.
    /// </summary>
    [Theory]
    [InlineData("unique-constraints-over-many-rows", false)]
    [InlineData("aggregates-over-a-large-child-table", false)]
    [InlineData("expression-columns-over-many-rows", true)]
    public void Derived_work_over_the_rule_is_refused(string shape, bool byTheDataReaderToo)
    {
        var payload = CraftedPayloads.Create(shape);
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload)));
        Assert.Contains("16 per payload byte", error.Message, StringComparison.Ordinal);
        var fromReader = Record.Exception(() =>
        {
            using var reader = DataSetSerializer.CreateReader(new MemoryStream(payload));
            do
            {
                while (reader.Read())
                {
                }
            }
            while (reader.NextResult());
        });
        Assert.Equal(byTheDataReaderToo, fromReader is DataSetSurrogateException { Message: var m } && m.Contains("16 per payload byte", StringComparison.Ordinal));
    }

    private static async Task AssertBounded(string shape, long bytesPerByte, Action<byte[]> read)
    {
        var payload = CraftedPayloads.Create(shape);
        var run = Task.Factory.StartNew(
            () =>
            {
                var before = GC.GetAllocatedBytesForCurrentThread();
                var error = Record.Exception(() => read(payload));
                return (Allocated: GC.GetAllocatedBytesForCurrentThread() - before, Error: error);
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);
        var finished = await Task.WhenAny(run, Task.Delay(HangLimit));
        Assert.True(finished == run, $"{shape}: decoding a {payload.Length:N0}-byte payload did not finish within {HangLimit}");
        var (allocated, error) = await run;
        Assert.True(error is null or DataSetSurrogateException, $"{shape}: {error}");
        // Compressed row blocks count at their raw length, which the reader holds to 1024 times their size.
        var length = CraftedPayloads.LogicalLength(payload);
        var limit = (bytesPerByte * length) + Constant;
        Assert.True(allocated <= limit, $"{shape}: {allocated:N0} bytes allocated for a {payload.Length:N0}-byte payload ({length:N0} with compressed blocks at their raw length) ({(double)allocated / length:F1} per byte; the bound is {bytesPerByte} per byte + {Constant:N0}){(error is null ? "" : $"; it failed with: {error.Message}")}");
    }
}
