using System.Collections.Concurrent;
using System.Globalization;
using System.Text;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// How compressible a grid message is, as the 2011 adaptive-encoding paper measured its messages: the share of
/// 64-byte blocks of random bytes among short XML-like text records (a 16-word vocabulary), and the frame/message
/// ratio the class stands for (DEFLATE 6 on 150 KB; <see cref="Band"/> is what the tests and the report accept).
/// </summary>
public sealed record GridKind(string Name, int RandomPerMille, double ClaimedRatio, (double Low, double High) Band);

/// <summary>
/// The grid's message contents (deterministic: SplitMix64 from a fixed seed, no runtime random generator), their
/// sizes in bytes, and the published 0.6–250 KB mix. A message of n bytes is the first n bytes of its kind's stream,
/// so every size of a kind has the same make-up; the smallest ones compress worse only because they are short.
/// </summary>
public static class GridMessages
{
    public const ulong Seed = 2011;

    /// <summary>The size that stands for the mix in cells and on the command line (<c>mix</c>); every other size is bytes.</summary>
    public const int Mix = 0;

    public const int Kilobyte = 1024;

    /// <summary>The largest single message a grid class serves (1 MB and a margin), also the mix's bound check.</summary>
    public const int MaxBytes = 4 << 20;

    /// <summary>1 KB, 16 KB, 150 KB, 1 MB, then the mix.</summary>
    public static readonly IReadOnlyList<int> Sizes = [Kilobyte, 16 * Kilobyte, 150 * Kilobyte, 1024 * Kilobyte, Mix];

    public static readonly IReadOnlyList<GridKind> Kinds =
    [
        new("simple", 0, 0.1, (0.05, 0.15)),
        new("medium", 270, 0.4, (0.3, 0.5)),
        new("complex", 850, 0.9, (0.8, 1.0)),
    ];

    /// <summary>
    /// The mix's sizes in call order (a client cycles through them): 0.6–250 KB with most near 150 KB, as published —
    /// three in four within ±30 KB of 150 KB, the rest spread log-uniformly over the whole range.
    /// </summary>
    public static readonly IReadOnlyList<int> MixSequence = BuildMix();

    private static readonly ConcurrentDictionary<(string Kind, int Size), byte[]> Payloads = new();

    public static GridKind Kind(string name) =>
        Kinds.FirstOrDefault(k => k.Name == name) ?? throw new ArgumentException($"Unknown grid message kind '{name}'; known: {string.Join(", ", Kinds.Select(k => k.Name))}.");

    /// <summary>"1 KB", "150 KB", "1 MB" or "mix", for reports.</summary>
    public static string Label(int size) => size switch
    {
        Mix => "mix",
        >= 1024 * Kilobyte when size % (1024 * Kilobyte) == 0 => (size / (1024 * Kilobyte)).ToString(CultureInfo.InvariantCulture) + " MB",
        _ when size % Kilobyte == 0 => (size / Kilobyte).ToString(CultureInfo.InvariantCulture) + " KB",
        _ => size.ToString(CultureInfo.InvariantCulture) + " B",
    };

    /// <summary>The message of <paramref name="size"/> bytes of a kind, built once and shared (never modified).</summary>
    public static byte[] Payload(string kind, int size) => size is > 0 and <= MaxBytes
        ? Payloads.GetOrAdd((kind, size), static key => Generate(Kind(key.Kind), key.Size))
        : throw new ArgumentOutOfRangeException(nameof(size), size, $"A grid message has 1 to {MaxBytes} bytes.");

    /// <summary>Builds every payload a cell of this size asks for (the mix: each size of the sequence).</summary>
    public static void Preload(string kind, int size)
    {
        foreach (int each in size == Mix ? MixSequence.Distinct() : [size])
        {
            Payload(kind, each);
        }
    }

    /// <summary>The first <paramref name="size"/> bytes of a kind's stream: text records and random blocks as the kind's share says.</summary>
    public static byte[] Generate(GridKind kind, int size)
    {
        string[] words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"];
        var random = new SplitMix64(Seed);
        var output = new byte[size];
        int at = 0;
        int record = 0;
        Span<byte> block = stackalloc byte[64];
        while (at < size)
        {
            if ((int)random.Below(1000) < kind.RandomPerMille)
            {
                for (int i = 0; i < block.Length; i += 8)
                {
                    BitConverter.TryWriteBytes(block[i..], random.Next());
                }

                at += Copy(block, output, at);
            }
            else
            {
                record++;
                string line = string.Create(CultureInfo.InvariantCulture,
                    $"<item id=\"{record}\" name=\"{words[random.Below(16)]}\" state=\"{words[random.Below(4)]}\" qty=\"{random.Below(10)}\"/>\n");
                at += Copy(Encoding.ASCII.GetBytes(line), output, at);
            }
        }

        return output;
    }

    private static int Copy(ReadOnlySpan<byte> source, byte[] output, int at)
    {
        int count = Math.Min(source.Length, output.Length - at);
        source[..count].CopyTo(output.AsSpan(at));
        return count;
    }

    private static List<int> BuildMix()
    {
        const int Count = 32;
        const double Low = 0.6 * Kilobyte, High = 250 * Kilobyte, Near = 150 * Kilobyte, Spread = 30 * Kilobyte;
        var random = new SplitMix64(Seed + 1);
        var sizes = new List<int>(Count);
        for (int i = 0; i < Count; i++)
        {
            double size = i % 4 != 3
                ? Near + (Spread * (random.Unit() + random.Unit() - 1))
                : Low * Math.Pow(High / Low, random.Unit());
            sizes.Add((int)Math.Clamp(Math.Round(size), Low, High));
        }

        return sizes;
    }

    /// <summary>SplitMix64 (Steele, Lea and Flood): a fixed, portable sequence for a seed, unlike System.Random's unspecified one.</summary>
    private struct SplitMix64(ulong state)
    {
        public ulong Next()
        {
            state += 0x9E3779B97F4A7C15;
            ulong z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            return z ^ (z >> 31);
        }

        public int Below(int bound) => (int)(Next() % (ulong)bound);

        public double Unit() => (Next() >> 11) * (1.0 / (1UL << 53));
    }
}
