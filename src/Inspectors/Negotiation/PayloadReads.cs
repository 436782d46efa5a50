using System.Collections.Frozen;

namespace Surrogate.ServiceModel;

/// <summary>
/// What one end of a call has said it reads the codec payload for: nothing, every operation, or the operations with
/// the listed request actions. Immutable; shared by the System.ServiceModel inspectors and any other host adapter.
/// </summary>
internal sealed class PayloadReads
{
    /// <summary>The end has not said it reads the payload (no announcement, or a peer without the attribute).</summary>
    public static readonly PayloadReads Nothing = new(every: false, FrozenSet<string>.Empty);

    /// <summary>The end reads the payload for every operation of its endpoint (the announcement value "1").</summary>
    public static readonly PayloadReads Everything = new(every: true, FrozenSet<string>.Empty);

    private readonly bool _every;

    private PayloadReads(bool every, FrozenSet<string> actions)
    {
        _every = every;
        Actions = actions;
    }

    /// <summary>Whether the end reads the payload for every operation.</summary>
    public bool IsEverything => _every;

    /// <summary>The request actions of the operations the end reads the payload for (empty when <see cref="IsEverything"/>).</summary>
    public FrozenSet<string> Actions { get; }

    /// <summary>The operations with these request actions (an empty list means nothing).</summary>
    public static PayloadReads Of(IEnumerable<string> actions)
    {
        FrozenSet<string> set = actions.ToFrozenSet(StringComparer.Ordinal);
        return set.Count == 0 ? Nothing : new PayloadReads(every: false, set);
    }

    /// <summary>Whether the end reads the payload of the operation with request action <paramref name="action"/>.</summary>
    public bool Covers(string? action) => _every || (action is not null && Actions.Contains(action));

    /// <summary>The value of the AcceptActions header: the actions separated by spaces, a space or '%' inside one written as %20 or %25.</summary>
    public static string FormatActions(IEnumerable<string> actions) =>
        string.Join(' ', actions.Order(StringComparer.Ordinal).Select(a => a.Replace("%", "%25", StringComparison.Ordinal).Replace(" ", "%20", StringComparison.Ordinal)));

    /// <summary>The actions an AcceptActions header value lists.</summary>
    public static IEnumerable<string> ParseActions(string? value) =>
        (value ?? string.Empty).Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Select(a => a.Replace("%20", " ", StringComparison.Ordinal).Replace("%25", "%", StringComparison.Ordinal));
}
