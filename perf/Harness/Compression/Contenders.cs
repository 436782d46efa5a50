using System.Globalization;
using Surrogate.Compression;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>WCF's own <c>BinaryMessageEncodingBindingElement.CompressionFormat</c>, named apart from either WCF stack's enum.</summary>
public enum BuiltInCompression
{
    None,
    GZip,
    Deflate,
}

/// <summary>
/// One contender of the compression benchmarks: what compresses the replies. Each side builds its binding from it
/// (<see cref="BenchBindings"/> for the WCF client and the stand-in host, the CoreWCF server's own factory there):
/// binary encoding over net.tcp, plus our compressing encoder with <see cref="Options"/>, or WCF's
/// <see cref="BuiltIn"/> compression, or neither.
/// </summary>
public sealed record Contender(string Name, string Label, CompressionOptions? Options, BuiltInCompression BuiltIn = BuiltInCompression.None)
{
    /// <summary>
    /// The codec and level whose measured speed and ratio stand for this contender in the model; null when nothing
    /// compresses, or when a policy chooses per message (adaptive, rules-2011: their decisions are reported instead).
    /// </summary>
    /// <remarks>CompressionFormat compresses at CompressionLevel.Optimal, which is zlib-ng level 6.</remarks>
    public (CompressionCodec Codec, int Level)? ModelCodec => BuiltIn switch
    {
        BuiltInCompression.GZip => (CompressionCodec.GZip, 6),
        BuiltInCompression.Deflate => (CompressionCodec.Deflate, 6),
        _ => Options is { Policy: CompressionPolicy.Fixed } o && o.MinMessageSize <= BenchContract.MaxMessage ? (o.Codec, o.EffectiveLevel) : null,
    };

    /// <summary>Whether a policy chooses per message (the server logs its decisions).</summary>
    public bool IsPolicy => Options is { Policy: not CompressionPolicy.Fixed };

    /// <summary>Why this contender cannot run against <paramref name="server"/> (<c>soaphost</c> or <c>corewcf</c>), or null.</summary>
    public string? CannotWork(string server) => BuiltIn != BuiltInCompression.None && server == "soaphost"
        ? "WCF's CompressionFormat works on CoreWCF only: the stand-in host cannot compress a session's replies for it (docs/compression.md); build perf/CoreWcfServer"
        : null;
}

/// <summary>
/// The contenders: uncompressed, WCF's CompressionFormat GZip and Deflate (the static baseline), and our codecs at
/// the levels the codec sweep found useful (docs/compression.md, "Benchmarks": the DEFLATE family's fast level 2 and
/// level 6 of 2011, Brotli 1 and 4, zstd 1, its default 3 and 9 for slow links, LZ4's fast level 0; the rest were
/// slower for no smaller replies), then the two policies that choose per message: our adaptive encoder and the 2011
/// DynamicEncoder rules (<see cref="CompressionOptions.Adaptive"/>, <see cref="CompressionOptions.Rules2011"/>). Any codec
/// and level offered can be named as <c>codec-level</c> (<c>brotli-11</c>, <c>lz4-9</c>).
/// </summary>
public static class ContenderCatalog
{
    public const string UncompressedName = "uncompressed";
    public const string AdaptiveName = "adaptive";
    public const string Rules2011Name = "rules-2011";
    public const string RawFramedName = "raw-framed";

    public static Contender Uncompressed { get; } = new(UncompressedName, "uncompressed (binary)", null);

    /// <summary>
    /// Our encoder sending every message raw (a floor above any message): what the frame and the encoder around the
    /// binary one cost without a codec or a policy. Asked for by name only.
    /// </summary>
    public static Contender RawFramed { get; } = new(RawFramedName, "our frame, every message raw", new CompressionOptions { MinMessageSize = int.MaxValue });

    public static IReadOnlyList<Contender> Defaults { get; } =
    [
        Uncompressed,
        new("format-gzip", "CompressionFormat.GZip (WCF)", null, BuiltInCompression.GZip),
        new("format-deflate", "CompressionFormat.Deflate (WCF)", null, BuiltInCompression.Deflate),
        Ours(CompressionCodec.Deflate, 2),
        Ours(CompressionCodec.Deflate, 6),
        Ours(CompressionCodec.GZip, 6),
        Ours(CompressionCodec.Brotli, 1),
        Ours(CompressionCodec.Brotli, 4),
        Ours(CompressionCodec.Zstd, 1),
        Ours(CompressionCodec.Zstd, 3),
        Ours(CompressionCodec.Zstd, 9),
        Ours(CompressionCodec.Lz4, 0),
        new(AdaptiveName, "adaptive (ours)", CompressionOptions.Adaptive),
        new(Rules2011Name, "2011 rules (DynamicEncoder)", CompressionOptions.Rules2011),
    ];

    /// <summary>Every contender with a name of its own: the defaults and <see cref="RawFramed"/>.</summary>
    private static IEnumerable<Contender> Named => Defaults.Append(RawFramed);

    /// <summary>The short version's contenders (CI): the baseline, one built-in, the 2011 codec, the fastest modern one and the adaptive policy.</summary>
    public static IReadOnlyList<string> QuickNames { get; } = [UncompressedName, "format-gzip", "deflate-6", "zstd-1", AdaptiveName];

    /// <summary>A contender by name: a default one, <c>raw-framed</c>, or <c>codec-level</c> for any level offered.</summary>
    /// <exception cref="ArgumentException">Unknown name, or a level the codec does not offer (the message lists them).</exception>
    public static Contender Get(string name)
    {
        if (Named.FirstOrDefault(c => c.Name == name) is { } known)
        {
            return known;
        }

        int dash = name.LastIndexOf('-');
        if (dash > 0 && Enum.TryParse(name[..dash], ignoreCase: true, out CompressionCodec codec) && Enum.IsDefined(codec)
            && int.TryParse(name[(dash + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out int level))
        {
            return CompressionOptions.Levels(codec).Contains(level)
                ? Ours(codec, level)
                : throw new ArgumentException($"Contender '{name}': {codec} offers levels {string.Join(", ", CompressionOptions.Levels(codec))}.");
        }

        throw new ArgumentException($"Unknown contender '{name}'; known: {string.Join(", ", Named.Select(c => c.Name))}, or codec-level (e.g. zstd-9).");
    }

    /// <summary>
    /// Our encoder with one codec and level, otherwise as a user gets it: messages under 1 KiB (the requests) go raw,
    /// every reply here is larger and is compressed.
    /// </summary>
    private static Contender Ours(CompressionCodec codec, int level) => new(
        $"{codec}-{level}".ToLowerInvariant(), $"{codec} {level} (ours)", new CompressionOptions { Codec = codec, Level = level });
}
