using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Fuzz;

/// <summary>
/// One fuzz target per decode entry point. Each reads an input through its entry points and throws
/// <see cref="FuzzFindingException"/> (or lets a foreign exception escape) for anything that is a bug: an exception other
/// than <see cref="DataSetSurrogateException"/>, allocation beyond <see cref="AllocationBound"/>, entry points that
/// disagree, a failed load that leaves rows behind, or a result that does not survive its own round trip.
/// The AFL++ harness and the regression-corpus test run the same code.
/// </summary>
public static class DecodeTargets
{
    /// <summary>The targets by name, as run.sh and the regression test name them.</summary>
    public static IReadOnlyDictionary<string, Func<byte[], string?>> All { get; } = new Dictionary<string, Func<byte[], string?>>(StringComparer.Ordinal)
    {
        ["dataset"] = DataSet,
        ["table"] = Table,
        ["typed"] = Typed,
        ["reader"] = Reader,
        ["stream"] = Streams,
    };

    /// <summary>Runs one target; returns null when the input loaded, or the library's refusal message.</summary>
    public static string? Check(string target, byte[] input) => All[target](input);

    /// <summary>Deserialize into a DataSet from a span and from a three-segment sequence; both must agree.</summary>
    private static string? DataSet(byte[] input)
    {
        var fromSpan = Outcome.Of(input, () => DataSetSerializer.Deserialize(input));
        var fromSequence = Outcome.Of(input, () => DataSetSerializer.Deserialize(AwkwardInput.Segmented(input, Math.Max(1, input.Length / 3))));
        if (Outcome.Agree(fromSpan, fromSequence, DataSetAssert.Equivalent) is { } result)
        {
            DataSetAssert.Equivalent(result, DataSetSerializer.Deserialize(DataSetSerializer.Serialize(result)));
        }

        return fromSpan.Refusal;
    }

    /// <summary>DeserializeTable and DeserializeInto(DataTable); a failed DeserializeInto must leave no rows.</summary>
    private static string? Table(byte[] input)
    {
        var fresh = Outcome.Of(input, () => DataSetSerializer.DeserializeTable(input));
        var target = new DataTable();
        var into = Outcome.Of(input, () =>
        {
            DataSetSerializer.DeserializeInto(input, target);
            return target;
        });
        NoRowsLeft(into, target.Rows.Count);
        if (Outcome.Agree(fresh, into, DataSetAssert.Equivalent) is { } result)
        {
            DataSetAssert.Equivalent(result, DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(result)));
        }

        return fresh.Refusal;
    }

    /// <summary>Deserialize&lt;OrdersTypedDataSet&gt; and DeserializeInto a typed instance: the class decides the schema.</summary>
    private static string? Typed(byte[] input)
    {
        var fresh = Outcome.Of(input, () => DataSetSerializer.Deserialize<OrdersTypedDataSet>(input));
        var target = new OrdersTypedDataSet();
        var into = Outcome.Of(input, () =>
        {
            DataSetSerializer.DeserializeInto(input, target);
            return target;
        });
        NoRowsLeft(into, target.Tables.Cast<DataTable>().Sum(t => t.Rows.Count));
        if (Outcome.Agree(fresh, into, DataSetAssert.Equivalent) is { } result)
        {
            DataSetAssert.Equivalent(result, DataSetSerializer.Deserialize<OrdersTypedDataSet>(DataSetSerializer.Serialize(result)));
        }

        return fresh.Refusal;
    }

    /// <summary>CreateReader over a sequence: every result set, row and value. Where the DataSet path loads the
    /// input too, the reader must show exactly its non-deleted rows.</summary>
    private static string? Reader(byte[] input)
    {
        var read = Outcome.Of(input, () => ReaderContents.Read(DataSetSerializer.CreateReader(AwkwardInput.Segmented(input, Math.Max(1, input.Length / 2)))));
        var loaded = Outcome.Of(input, () => DataSetSerializer.Deserialize(input));
        if (loaded.Value is { } dataSet)
        {
            ReaderContents.Same(ReaderContents.Of(dataSet), read.Value ?? throw new FuzzFindingException($"the DataSet path loads the input but the reader refuses it: {read.Refusal}"));
        }

        return read.Refusal;
    }

    /// <summary>The Stream overloads over a stream that returns one byte per read: DataSet, DataTable, async and
    /// reader. Each must give what the in-memory path gives.</summary>
    private static string? Streams(byte[] input)
    {
        var memory = Outcome.Of(input, () => DataSetSerializer.Deserialize(input));
        var stream = Outcome.Of(input, () => DataSetSerializer.Deserialize(new OneByteAtATimeStream(input)));
        var async = Outcome.Of(input, () => DataSetSerializer.DeserializeAsync(new OneByteAtATimeStream(input)).AsTask().GetAwaiter().GetResult());
        Outcome.Agree(memory, stream, DataSetAssert.Equivalent);
        Outcome.Agree(memory, async, DataSetAssert.Equivalent);

        var table = Outcome.Of(input, () => DataSetSerializer.DeserializeTable(input));
        var tableStream = Outcome.Of(input, () => DataSetSerializer.DeserializeTable(new OneByteAtATimeStream(input)));
        Outcome.Agree(table, tableStream, DataSetAssert.Equivalent);

        var fromSequence = Outcome.Of(input, () => ReaderContents.Read(DataSetSerializer.CreateReader(new System.Buffers.ReadOnlySequence<byte>(input))));
        var fromStream = Outcome.Of(input, () => ReaderContents.Read(DataSetSerializer.CreateReader(new OneByteAtATimeStream(input))));
        Outcome.Agree(fromSequence, fromStream, ReaderContents.Same);
        return memory.Refusal;
    }

    private static void NoRowsLeft<T>(Outcome<T> outcome, int rows)
        where T : class
    {
        if (outcome.Refusal is not null && rows > 0)
        {
            throw new FuzzFindingException($"a failed DeserializeInto left {rows} rows in its target: {outcome.Refusal}");
        }
    }
}
