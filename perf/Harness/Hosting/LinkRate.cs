using System.Globalization;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// A link rate written as tc writes rates (<c>100mbit</c>, <c>1gbit</c>, <c>500kbit</c>, <c>12.5mbps</c>, <c>64kibit</c>;
/// a bare number is bits per second), and the token-bucket burst sized from it.
/// </summary>
public sealed record LinkRate(string Text, long BitsPerSecond)
{
    /// <summary>The kernel's timer frequency here (CONFIG_HZ=250): TBF needs a burst of at least one tick's worth of bytes.</summary>
    private const int KernelHz = 250;

    private const long MinBurstBytes = 32 * 1024;

    // tc's units: SI prefixes for k/m/g/t, binary ones for ki/mi/gi/ti; "bit" counts bits, "bps" bytes.
    private static readonly (string Suffix, double Bits)[] Units =
    [
        ("kibit", 1024d), ("mibit", 1024d * 1024), ("gibit", 1024d * 1024 * 1024), ("tibit", 1024d * 1024 * 1024 * 1024),
        ("kibps", 8 * 1024d), ("mibps", 8 * 1024d * 1024), ("gibps", 8 * 1024d * 1024 * 1024), ("tibps", 8 * 1024d * 1024 * 1024 * 1024),
        ("kbit", 1e3), ("mbit", 1e6), ("gbit", 1e9), ("tbit", 1e12),
        ("kbps", 8e3), ("mbps", 8e6), ("gbps", 8e9), ("tbps", 8e12),
        ("bit", 1), ("bps", 8), (string.Empty, 1),
    ];

    /// <summary>A burst chosen by the caller (the compression benchmarks' small bursts), or null for the default.</summary>
    public long? Burst { get; init; }

    /// <summary>TBF's bucket: <see cref="Burst"/>, else one kernel tick's worth of bytes at this rate, at least 32 KB.</summary>
    public long BurstBytes => Burst ?? Math.Max(MinBurstBytes, BitsPerSecond / 8 / KernelHz);

    /// <summary>The rate as passed to tc, exact whatever unit the user wrote.</summary>
    public string TcRate => BitsPerSecond.ToString(CultureInfo.InvariantCulture) + "bit";

    /// <summary>E.g. "100mbit (100 Mbit/s)".</summary>
    public string Describe() => $"{Text} ({Human(BitsPerSecond)})";

    /// <summary>Parses a tc rate; throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static LinkRate Parse(string text)
    {
        string trimmed = text.Trim().ToLowerInvariant();
        foreach (var (suffix, bits) in Units)
        {
            if (trimmed.EndsWith(suffix, StringComparison.Ordinal)
                && double.TryParse(trimmed[..^suffix.Length], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double value))
            {
                double bitsPerSecond = value * bits;
                return bitsPerSecond is >= 8_000 and <= 100e9
                    ? new LinkRate(trimmed, (long)bitsPerSecond)
                    : throw new ArgumentException($"Link rate '{text}' is out of range (8kbit to 100gbit).");
            }
        }

        throw new ArgumentException($"'{text}' is not a rate tc understands (e.g. 100mbit, 1gbit, 500kbit).");
    }

    private static string Human(long bitsPerSecond) => bitsPerSecond switch
    {
        >= 1_000_000_000 => string.Create(CultureInfo.InvariantCulture, $"{bitsPerSecond / 1e9:0.###} Gbit/s"),
        >= 1_000_000 => string.Create(CultureInfo.InvariantCulture, $"{bitsPerSecond / 1e6:0.###} Mbit/s"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bitsPerSecond / 1e3:0.###} kbit/s"),
    };
}
