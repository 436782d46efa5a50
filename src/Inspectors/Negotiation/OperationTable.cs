using System.Collections.Concurrent;

namespace Surrogate.ServiceModel;

/// <summary>One operation of an endpoint's contract as negotiation sees it: its request action and whether it is one-way.</summary>
/// <param name="Action">The request action, which identifies the operation on the wire.</param>
/// <param name="IsOneWay">Whether the operation has no reply.</param>
internal sealed record SurrogateOperation(string Action, bool IsOneWay);

/// <summary>
/// The operations of one endpoint on one end, and which of them this end reads and writes the codec payload for
/// (those that carry the attribute, each with its own <typeparamref name="TReader"/>: the surrogate provider). Filled
/// while the behaviors apply, before the first message; read concurrently afterwards.
/// </summary>
/// <typeparam name="TReader">What reads an operation's payload (the provider of that operation on this end).</typeparam>
internal sealed class OperationTable<TReader>
    where TReader : class
{
    /// <summary>The action of WCF's catch-all operation, which receives requests no other operation matches.</summary>
    private const string AnyAction = "*";

    private readonly Dictionary<string, SurrogateOperation> _operations;
    private readonly ConcurrentDictionary<string, TReader> _readers = new(StringComparer.Ordinal);
    private volatile PayloadReads? _reads;

    /// <summary>Creates the table of a contract's operations, none of them covered yet.</summary>
    public OperationTable(IEnumerable<SurrogateOperation> operations)
    {
        _operations = new Dictionary<string, SurrogateOperation>(StringComparer.Ordinal);
        foreach (SurrogateOperation operation in operations)
        {
            _operations.TryAdd(operation.Action, operation);
        }
    }

    /// <summary>Records that this end reads and writes the payload for the operation with <paramref name="action"/>.</summary>
    public void Cover(string action, TReader reader)
    {
        _readers[action] = reader;
        _reads = null;
    }

    /// <summary>The operation with request action <paramref name="action"/> (or the catch-all one), or null.</summary>
    public SurrogateOperation? Find(string? action) =>
        action is not null && _operations.TryGetValue(action, out SurrogateOperation? operation) ? operation
            : _operations.GetValueOrDefault(AnyAction);

    /// <summary>What reads the payload of the operation with <paramref name="action"/> on this end, or null when it has no attribute.</summary>
    public TReader? ReaderFor(string? action) =>
        action is not null && _readers.TryGetValue(action, out TReader? reader) ? reader
            : action is not null && _operations.ContainsKey(action) ? null
            : _readers.GetValueOrDefault(AnyAction);

    /// <summary>What this end announces: every operation, or the request actions of those it covers.</summary>
    public PayloadReads Reads => _reads ??= _operations.Keys.All(_readers.ContainsKey) ? PayloadReads.Everything : PayloadReads.Of(_readers.Keys);
}
