namespace Surrogate.Perf.Benchmarks.Compression;

/// <summary>Order-like ASCII text the compression benchmarks feed their encoders: a few words and numbers, seeded.</summary>
internal static class BenchText
{
    /// <summary><paramref name="length"/> characters of it, the same for every call.</summary>
    public static string Orders(int length)
    {
        var random = new Random(1);
        string[] words = ["<Order>", "</Order>", "Seattle", "Visa", "Quantity", "2026-05-01"];
        var text = new System.Text.StringBuilder(length);
        while (text.Length < length)
        {
            text.Append(words[random.Next(words.Length)]).Append(random.Next(1000));
        }

        return text.ToString(0, length);
    }
}
