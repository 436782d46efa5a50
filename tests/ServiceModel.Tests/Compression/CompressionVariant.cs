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
        [.. Matrix(), .. Codecs(), Plain, Raw, Zstd, Limited, StreamedZstd, BuiltInGZip, BuiltInDeflate];

    public static CompressionVariant Named(string name) => All.Single(v => v.Name == name);

    /// <summary>
    /// The System.ServiceModel binding of this variant (the client's, and the stand-in host's): binary encoding over
    /// net.tcp (64 KB connection buffers) or HTTP, 64 MB quotas.
    /// </summary>
    public Binding ClientBinding(bool netTcp)
    {
        var binary = new BinaryMessageEncodingBindingElement { CompressionFormat = BuiltIn };
        SetQuotas(binary.ReaderQuotas);
        TransportBindingElement transport = netTcp
            ? new TcpTransportBindingElement { TransferMode = Streamed ? TransferMode.Streamed : TransferMode.Buffered, ConnectionBufferSize = 64 * 1024, MaxBufferSize = LargeMessage }
            : new HttpTransportBindingElement { MaxBufferSize = LargeMessage };
        transport.MaxReceivedMessageSize = LargeMessage;
        var binding = new CustomBinding(binary, transport);
        return Options is null ? binding : binding.WithCompression(Options);
    }

    public static void SetQuotas(XmlDictionaryReaderQuotas quotas)
    {
        quotas.MaxArrayLength = quotas.MaxStringContentLength = quotas.MaxBytesPerRead = LargeMessage;
    }

    public override string ToString() => Name;
}
