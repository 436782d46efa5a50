namespace Surrogate.Tests;

/// <summary>Deterministic corruptions of valid payloads: bit flips, byte sets, truncations, splices, repeats.</summary>
internal static class Mutations
{
    public static IEnumerable<byte[]> Generate(IReadOnlyList<byte[]> seeds, int count, int seed)
    {
        var random = new Random(seed);
        for (var i = 0; i < count; i++)
        {
            var source = seeds[random.Next(seeds.Count)];
            var data = (byte[])source.Clone();
            switch (random.Next(6))
            {
                case 0:
                    for (var n = random.Next(1, 4); n > 0; n--)
                    {
                        data[random.Next(data.Length)] ^= (byte)(1 << random.Next(8));
                    }

                    break;
                case 1:
                    data[random.Next(data.Length)] = (byte)random.Next(256);
                    break;
                case 2:
                    data = data[..random.Next(data.Length)];
                    break;
                case 3:
                {
                    var other = seeds[random.Next(seeds.Count)];
                    var cut = random.Next(data.Length);
                    var from = random.Next(other.Length);
                    data = [.. data[..cut], .. other[from..]];
                    break;
                }
                case 4:
                {
                    var start = random.Next(data.Length);
                    var length = Math.Min(random.Next(1, 64), data.Length - start);
                    data = [.. data[..(start + length)], .. data[start..(start + length)], .. data[(start + length)..]];
                    break;
                }
                default:
                    // Large varint bytes where lengths and counts live.
                    data[random.Next(data.Length)] = 0xFF;
                    data[random.Next(data.Length)] = 0x7F;
                    break;
            }

            yield return data;
        }
    }
}
