using System.Collections.Concurrent;

namespace Surrogate.Compression.Policies;

/// <summary>
/// A policy's state per key — a message's action and its size class (its length rounded down to a power of two) —
/// created on first use. At most <see cref="MaxKeys"/> keys; past that, new actions share the action <c>*</c>, so
/// memory stays bounded whatever actions the messages carry.
/// </summary>
internal sealed class KeyTable<T>(Func<string, int, T> create)
    where T : class
{
    public const int MaxKeys = 4096;

    private readonly ConcurrentDictionary<(string Action, int SizeClass), T> _keys = new();
    private int _count;

    /// <summary>The size class of a message of <paramref name="length"/> bytes: floor(log2(length)).</summary>
    public static int SizeClass(long length) => 63 - (int)ulong.LeadingZeroCount((ulong)Math.Max(length, 1));

    public T Get(string action, int sizeClass)
    {
        if (_keys.TryGetValue((action, sizeClass), out T? found))
        {
            return found;
        }

        if (Volatile.Read(ref _count) >= MaxKeys)
        {
            action = "*";
            if (_keys.TryGetValue((action, sizeClass), out found))
            {
                return found;
            }
        }

        T created = create(action, sizeClass);
        T stored = _keys.GetOrAdd((action, sizeClass), created);
        if (ReferenceEquals(stored, created))
        {
            Interlocked.Increment(ref _count);
        }

        return stored;
    }
}
