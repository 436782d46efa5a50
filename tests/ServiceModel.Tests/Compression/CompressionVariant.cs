using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Surrogate.Compression;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// One configuration of both ends that the compression suite runs: a codec and level of ours, every message raw, WCF's
/// own CompressionFormat, no compression at all, or a special endpoint (small limit, streamed). Each is an endpoint at
/// <see cref="Path"/> on every host.
/// </summary>
public sealed record CompressionVariant(string Name, CompressionOptions? Options = null, CompressionFormat BuiltIn = CompressionFormat.None, bool Streamed = false)
{
    public const int LargeMessage = 64 << 20;

    public string Path => "/" + Name;

    /// <summary>No compressing encoder on this end.</summary>
    public static readonly CompressionVariant Plain = new("plain");

    /// <summary>Our encoder with every message below the floor: raw frames only.</summary>
    public static readonly CompressionVariant Raw = new("raw", new CompressionOptions { MinMessageSize = int.MaxValue });

    /// <summary>zstd at its default level: the suite's single-codec cases.</summary>
    public static readonly CompressionVariant Zstd = new("zstd", CompressionOptions.Default);

    /// <summary>An end that accepts 64 KiB decompressed (its transport takes 64 MB).</summary>
    public static readonly CompressionVariant Limited = new("limited", new CompressionOptions { MaxDecompressedSize = 64 * 1024 });

    /// <summary>net.tcp with TransferMode.Streamed, zstd.</summary>
    public static readonly CompressionVariant StreamedZstd = new("streamed-zstd", CompressionOptions.Default, Streamed: true);

    /// <summary>
    /// The adaptive policy on a link it takes as 10 Mbit/s without measuring, without exploration or CPU guard: its
    /// choices depend on the messages only, so the suite can tell what goes compressed.
    /// </summary>
    public static readonly CompressionVariant Adaptive = new("adaptive", PinnedAdaptive());

    public static readonly CompressionVariant AdaptiveLimited = new("adaptive-limited", PinnedAdaptive() with { MaxDecompressedSize = 64 * 1024 });

    public static readonly CompressionVariant StreamedAdaptive = new("streamed-adaptive", PinnedAdaptive(), Streamed: true);

    /// <summary>
    /// The adaptive policy as users get it: it measures the link, explores and guards the CPU, and sends raw to a peer
    /// on this machine, which every peer of the suite is (each end meets the other through a relay on 127.0.0.1).
    /// </summary>
    public static readonly CompressionVariant AdaptiveDefaults = new("adaptive-defaults", CompressionOptions.Adaptive);

    /// <summary>The defaults with the local peer (the relay) priced as a link, as for a sidecar proxy: what is measured over loopback.</summary>
    public static readonly CompressionVariant AdaptiveRelayed = new("adaptive-relayed", CompressionOptions.Adaptive with { RawToLocalPeers = false });

    /// <summary>The 2011 DynamicEncoder's rules (DEFLATE).</summary>
    public static readonly CompressionVariant Rules2011 = new("rules2011", PinnedRules2011());

    public static readonly CompressionVariant Rules2011Limited = new("rules2011-limited", PinnedRules2011() with { MaxDecompressedSize = 64 * 1024 });

    public static readonly CompressionVariant StreamedRules2011 = new("streamed-rules2011", PinnedRules2011(), Streamed: true);

    /// <summary>WCF's built-in compression of the binary encoder.</summary>
    public static readonly CompressionVariant BuiltInGZip = new("format-gzip", BuiltIn: CompressionFormat.GZip);

    public static readonly CompressionVariant BuiltInDeflate = new("format-deflate", BuiltIn: CompressionFormat.Deflate);

    /// <summary>Every codec at every level offered.</summary>
    public static IEnumerable<CompressionVariant> Matrix() =>
        Enum.GetValues<CompressionCodec>().SelectMany(codec => CompressionOptions.Levels(codec)
            .Select(level => new CompressionVariant($"{codec}-{level}".ToLowerInvariant(), new CompressionOptions { Codec = codec, Level = level })));

    /// <summary>Each codec at its default level.</summary>
    public static IEnumerable<CompressionVariant> Codecs() =>
        Enum.GetValues<CompressionCodec>().Select(codec => new CompressionVariant(codec.ToString().ToLowerInvariant() + "-default", new CompressionOptions { Codec = codec }));

    /// <summary>Every endpoint a host serves.</summary>
    public static IReadOnlyList<CompressionVariant> All { get; } =
    [
        .. Matrix(), .. Codecs(), Plain, Raw, Zstd, Limited, StreamedZstd, BuiltInGZip, BuiltInDeflate,
        Adaptive, AdaptiveLimited, StreamedAdaptive, AdaptiveDefaults, AdaptiveRelayed, Rules2011, Rules2011Limited, StreamedRules2011,
    ];

    public static CompressionVariant Named(string name) => All.Single(v => v.Name == name);

    /// <summary>
    /// The System.ServiceModel binding of this variant (the client's, and the stand-in host's): binary encoding over
    /// net.tcp (64 KB connection buffers) or HTTP, 64 MB quotas.
    /// </summary>
    public Binding ClientBinding(bool netTcp, CompressionDecisionLog? log = null)
    {
        var binary = new BinaryMessageEncodingBindingElement { CompressionFormat = BuiltIn };
        SetQuotas(binary.ReaderQuotas);
        TransportBindingElement transport = netTcp
            ? new TcpTransportBindingElement { TransferMode = Streamed ? TransferMode.Streamed : TransferMode.Buffered, ConnectionBufferSize = 64 * 1024, MaxBufferSize = LargeMessage }
            : new HttpTransportBindingElement { MaxBufferSize = LargeMessage };
        transport.MaxReceivedMessageSize = LargeMessage;
        var binding = new CustomBinding(binary, transport);
        return OptionsWith(log) is { } options ? binding.WithCompression(options) : binding;
    }

    /// <summary>The options, writing the decisions of the adaptive and 2011 policies to <paramref name="log"/>.</summary>
    public CompressionOptions? OptionsWith(CompressionDecisionLog? log) =>
        Options is { Policy: not CompressionPolicy.Fixed } options && log is not null ? options with { DecisionLog = log } : Options;

    private static CompressionOptions PinnedAdaptive() => CompressionOptions.Adaptive with
    {
        Goal = CompressionGoal.Latency,
        MeasureLink = false,
        LinkBitsPerSecond = 10_000_000,
        ExplorationRate = 0,
        CpuHighWatermark = 1,
    };

    /// <summary>
    /// The 2011 rules with the CPU rule off (a limit of 100% is never exceeded): the suite checks what goes on the wire,
    /// and a loaded test machine would otherwise send some replies raw; Rules2011PolicyTests covers the CPU rule with an
    /// injected CPU reading.
    /// </summary>
    private static CompressionOptions PinnedRules2011() => CompressionOptions.Rules2011 with { CpuDisableLimit = 1 };

    public static void SetQuotas(XmlDictionaryReaderQuotas quotas)
    {
        quotas.MaxArrayLength = quotas.MaxStringContentLength = quotas.MaxBytesPerRead = LargeMessage;
    }

    public override string ToString() => Name;
}
