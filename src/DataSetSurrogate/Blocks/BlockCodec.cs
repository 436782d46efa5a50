namespace Surrogate.Blocks;

/// <summary>
/// The codecs of <see cref="BlockCodecs"/>, by their ids: the same numbers name a codec in a compressed message's
/// header (DataSetSurrogate.Compression's CompressionCodec) and in a compressed row block (<see cref="RowBlockCodec"/>).
/// </summary>
internal enum BlockCodec
{
    Deflate = 1,
    GZip = 2,
    Brotli = 3,
    Zstd = 4,
    Lz4 = 6,
    ZLib = 7,
}
