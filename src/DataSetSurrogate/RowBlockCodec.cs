namespace Surrogate;

/// <summary>
/// How a writer compresses row blocks (<see cref="SurrogateOptions.BlockCodec"/>). The value is the codec's id in a
/// compressed row block (docs/wire-format.md); readers understand every codec, whatever their own options say.
/// </summary>
public enum RowBlockCodec
{
    /// <summary>Row blocks are written raw (the default).</summary>
    None = 0,

    /// <summary>Raw DEFLATE (RFC 1951, System.IO.Compression). Levels 2–9, default 6.</summary>
    Deflate = 1,

    /// <summary>Brotli (RFC 7932, System.IO.Compression). Quality 0–11, default 4.</summary>
    Brotli = 3,

    /// <summary>Zstandard (RFC 8878, ZstdSharp.Port). Levels 1–19, default 3.</summary>
    Zstd = 4,

    /// <summary>LZ4 block format (K4os.Compression.LZ4). Level 0 (fast, the default) and 3–12 (high compression).</summary>
    Lz4 = 6,
}
