namespace Surrogate.Compression;

/// <summary>
/// A compression codec of the compressing message encoders. The value is the codec's id in each compressed
/// message's header (docs/compression.md); 0 there means the message was sent uncompressed.
/// </summary>
public enum CompressionCodec
{
    /// <summary>Raw DEFLATE (RFC 1951, System.IO.Compression, zlib-ng). Levels 2–9.</summary>
    Deflate = 1,

    /// <summary>GZip (RFC 1952): DEFLATE with a header and a CRC-32. Levels 2–9.</summary>
    GZip = 2,

    /// <summary>Brotli (RFC 7932, System.IO.Compression). Quality 0–11.</summary>
    Brotli = 3,

    /// <summary>Zstandard (RFC 8878, ZstdSharp.Port). Levels 1–19.</summary>
    Zstd = 4,

    /// <summary>LZ4 block format (K4os.Compression.LZ4). Level 0 (fast) and 3–12 (high compression).</summary>
    Lz4 = 6,

    /// <summary>ZLib (RFC 1950): DEFLATE with a header and an Adler-32. Levels 2–9.</summary>
    ZLib = 7,
}
