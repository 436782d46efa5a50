namespace Surrogate.Compression.Policies;

/// <summary>
/// Order-0 entropy of a sample of a message: a cheap negative filter (about 2 µs). At 7.5 bits per byte or more the
/// message is taken as incompressible (encrypted, already compressed, random); below that it says little, since
/// repeated strings compress far better than the byte histogram predicts.
/// </summary>
internal static class ByteEntropy
{
    /// <summary>Bits per byte at or above which a sample counts as incompressible.</summary>
    public const double Incompressible = 7.5;

    private const int SampleSize = 4096;
    private const int Runs = 16;

    /// <summary>Bits per byte of <paramref name="data"/>, or of 16 runs of 256 bytes spread over it when it is longer than 4 KiB.</summary>
    public static double BitsPerByte(ReadOnlySpan<byte> data)
    {
        if (data.IsEmpty)
        {
            return 0;
        }

        Span<int> counts = stackalloc int[256];
        int total;
        if (data.Length <= SampleSize)
        {
            foreach (byte b in data)
            {
                counts[b]++;
            }

            total = data.Length;
        }
        else
        {
            int run = SampleSize / Runs;
            long stride = (data.Length - run) / (Runs - 1);
            for (int i = 0; i < Runs; i++)
            {
                foreach (byte b in data.Slice((int)(i * stride), run))
                {
                    counts[b]++;
                }
            }

            total = SampleSize;
        }

        double bits = 0;
        foreach (int count in counts)
        {
            if (count > 0)
            {
                double p = count / (double)total;
                bits -= p * Math.Log2(p);
            }
        }

        return bits;
    }
}
