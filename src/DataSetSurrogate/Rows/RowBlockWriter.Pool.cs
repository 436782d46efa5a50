namespace Surrogate.Rows;

internal sealed partial class RowBlockWriter
{
    /// <summary>The most a pooled writer may hold (arrays and tables sized for default blocks stay well under it).</summary>
    internal const long MaxRetainedBytes = 1 << 20;

    // Writers kept for the next payloads, shared by every thread: at most one per processor, each holding at most
    // MaxRetainedBytes, so a service whose thread pool grew keeps no more than it would with one thread per core.
    private static readonly RowBlockWriter?[] s_pool = new RowBlockWriter?[Environment.ProcessorCount];

    /// <summary>Bytes the pooled writers hold now.</summary>
    internal static long PooledBytes
    {
        get
        {
            long bytes = 0;
            for (var i = 0; i < s_pool.Length; i++)
            {
                bytes += Volatile.Read(ref s_pool[i])?.RetainedBytes ?? 0;
            }

            return bytes;
        }
    }

    /// <summary>What this writer's arrays and tables hold on to.</summary>
    internal long RetainedBytes =>
        _values.RetainedBytes + _bitmap.Length + (4L * _versions.Length) + (8L * _states.Length) + (8L * _modified.Length) + (8L * _records.Length) + _compressed.Length;

    /// <summary>A writer from the pool, or a new one.</summary>
    public static RowBlockWriter Rent()
    {
        for (var i = 0; i < s_pool.Length; i++)
        {
            if (Interlocked.Exchange(ref s_pool[i], null) is { } writer)
            {
                return writer;
            }
        }

        return new RowBlockWriter();
    }

    /// <summary>Drops every value of the last payload and keeps the writer for the next one if it is small enough.</summary>
    public void Return()
    {
        _values.Clear();
        _records = [];
        _recordCount = 0;
        if (RetainedBytes > MaxRetainedBytes)
        {
            return;
        }

        for (var i = 0; i < s_pool.Length; i++)
        {
            if (Interlocked.CompareExchange(ref s_pool[i], this, null) is null)
            {
                return;
            }
        }
    }
}
