using System.Collections.Concurrent;
using ZstdSharp;

namespace Surrogate.Blocks;

/// <summary>
/// Pooled zstd contexts: a compressor per level and decompressors, reused across messages and row blocks so that
/// none allocates a context. The pools keep at most a few contexts each (one per core); extra ones are disposed.
/// </summary>
internal static class ZstdContexts
{
    private static readonly int MaxPooled = Math.Max(2, Environment.ProcessorCount);
    private static readonly ConcurrentDictionary<int, ConcurrentBag<Compressor>> Compressors = new();
    private static readonly ConcurrentBag<Decompressor> Decompressors = [];

    public static bool TryCompress(int level, ReadOnlySpan<byte> source, Span<byte> destination, out int written)
    {
        ConcurrentBag<Compressor> pool = Compressors.GetOrAdd(level, _ => []);
        Compressor compressor = pool.TryTake(out Compressor? pooled) ? pooled : new Compressor(level);
        try
        {
            return compressor.TryWrap(source, destination, out written);
        }
        finally
        {
            Return(pool, compressor);
        }
    }

    public static bool TryDecompress(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        Decompressor decompressor = Decompressors.TryTake(out Decompressor? pooled) ? pooled : new Decompressor();
        bool decoded;
        try
        {
            decoded = decompressor.TryUnwrap(source, destination, out int written) && written == destination.Length;
        }
        catch (ZstdException)
        {
            // A failed frame may leave the context mid-frame: drop it rather than pool it.
            decompressor.Dispose();
            return false;
        }

        Return(Decompressors, decompressor);
        return decoded;
    }

    private static void Return<T>(ConcurrentBag<T> pool, T context)
        where T : IDisposable
    {
        if (pool.Count < MaxPooled)
        {
            pool.Add(context);
        }
        else
        {
            context.Dispose();
        }
    }
}
