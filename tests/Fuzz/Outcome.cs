namespace Surrogate.Fuzz;

/// <summary>What one entry point did with an input: a value, or the library's refusal. Any other exception escapes,
/// and so does allocation beyond <see cref="AllocationBound"/>: both are findings.</summary>
public readonly record struct Outcome<T>(T? Value, string? Refusal)
    where T : class;

/// <summary>Runs entry points under the fuzz rules.</summary>
public static class Outcome
{
    public static Outcome<T> Of<T>(byte[] input, Func<T> read)
        where T : class
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        Outcome<T> outcome;
        try
        {
            outcome = new Outcome<T>(read(), null);
        }
        catch (DataSetSurrogateException refused)
        {
            outcome = new Outcome<T>(null, refused.Message);
        }

        AllocationBound.Check(input.Length, GC.GetAllocatedBytesForCurrentThread() - before, outcome.Refusal);
        return outcome;
    }

    /// <summary>Two entry points given the same input must both refuse it or both load equal results.</summary>
    /// <returns>The first result, or null when both refused.</returns>
    public static T? Agree<T>(Outcome<T> first, Outcome<T> second, Action<T, T> assertEqual)
        where T : class
    {
        if ((first.Value is null) != (second.Value is null))
        {
            throw new FuzzFindingException($"entry points disagree: one {(first.Value is null ? "refused" : "loaded")} the input " +
                $"({first.Refusal}), the other {(second.Value is null ? "refused" : "loaded")} it ({second.Refusal})");
        }

        if (first.Value is null)
        {
            return null;
        }

        assertEqual(first.Value, second.Value!);
        return first.Value;
    }
}

/// <summary>A bug the fuzzer found: the harness lets it escape so afl-fuzz records a crash.</summary>
public sealed class FuzzFindingException(string message) : Exception(message);
