using System.Numerics;
using System.Runtime.CompilerServices;

namespace Surrogate;

/// <summary>
/// Limits and extension points for reading and writing payloads. Immutable; <see cref="Default"/> is safe for
/// untrusted input. Every value is checked when it is set: one that makes no sense throws
/// <see cref="ArgumentOutOfRangeException"/> naming the property.
/// </summary>
/// <remarks>
/// <para><b>Reading limits</b> (the <c>Max…</c> properties) apply when a payload is read: every count and length in a
/// payload is checked against them before anything is allocated for it, and a payload over one is refused with a
/// <see cref="DataSetSurrogateException"/> naming the property. A count limit may be zero, to refuse every such
/// thing (relations, say, or rows: schema only); <see cref="MaxTables"/>, <see cref="MaxColumnsPerTable"/>,
/// <see cref="MaxTotalBytes"/> and <see cref="MaxNameLength"/> must be positive, since no useful payload gets by
/// without them.</para>
/// <para><b>Writing settings</b> (<see cref="RowsPerBlock"/>, <see cref="BlockByteBudget"/>, <see cref="BlockCodec"/>,
/// <see cref="BlockCompressionLevel"/>) only shape what is written; a reader accepts any block size up to
/// <see cref="MaxRowsPerBlock"/> and reads row blocks of every codec. <see cref="ExtraColumnTypes"/>
/// applies to both sides, which must register the same types.</para>
/// </remarks>
public sealed record SurrogateOptions
{
    /// <summary>The hard ceiling on rows in one row block, for writers and readers alike.</summary>
    public const int MaxRowsPerBlock = 65_536;

    /// <summary>The safe defaults.</summary>
    public static SurrogateOptions Default { get; } = new();

    /// <summary>Reading limit: most tables in one payload (default 1,024; at least 1).</summary>
    public int MaxTables { get; init => field = Positive(value); } = 1024;

    /// <summary>Reading limit: most columns in one table (default 4,096; at least 1).</summary>
    public int MaxColumnsPerTable { get; init => field = Positive(value); } = 4096;

    /// <summary>Reading limit: most rows over all tables of one payload (default 10,000,000).</summary>
    public long MaxRows { get; init => field = NotNegative(value); } = 10_000_000;

    /// <summary>Reading limit: most payload bytes read (default 1 GiB; at least 1).</summary>
    public long MaxTotalBytes { get; init => field = Positive(value); } = 1L << 30;

    /// <summary>Reading limit: longest string value in UTF-8 bytes (default 64 MiB).</summary>
    public int MaxStringLength { get; init => field = NotNegative(value); } = 64 << 20;

    /// <summary>Reading limit: longest binary value in bytes (default 64 MiB).</summary>
    public int MaxBinaryLength { get; init => field = NotNegative(value); } = 64 << 20;

    /// <summary>Reading limit: most relations in one payload (default 4,096).</summary>
    public int MaxRelations { get; init => field = NotNegative(value); } = 4096;

    /// <summary>Reading limit: most constraints in one payload, unique and foreign-key together (default 4,096).</summary>
    public int MaxConstraints { get; init => field = NotNegative(value); } = 4096;

    /// <summary>Reading limit: longest table, column, relation, constraint or namespace name in characters (default 1,024; at least 1).</summary>
    public int MaxNameLength { get; init => field = Positive(value); } = 1024;

    /// <summary>Reading limit: longest column expression in characters (default 4,096).</summary>
    public int MaxExpressionLength { get; init => field = NotNegative(value); } = 4096;

    /// <summary>Reading limit: most extended properties on one DataSet, table, column, constraint or relation (default 1,024).</summary>
    public int MaxExtendedProperties { get; init => field = NotNegative(value); } = 1024;

    /// <summary>Writing: rows per row block (default 4,096; from 1 to <see cref="MaxRowsPerBlock"/>).</summary>
    public int RowsPerBlock
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value, nameof(RowsPerBlock));
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, MaxRowsPerBlock, nameof(RowsPerBlock));
            field = value;
        }
    } = 4096;

    /// <summary>
    /// Writing: when streaming an <see cref="System.Data.IDataReader"/>, a block is closed early once its strings and
    /// byte arrays reach about this many bytes (default 4 MiB; at least 1), so wide or long values do not inflate memory.
    /// </summary>
    public int BlockByteBudget { get; init => field = Positive(value); } = 4 << 20;

    /// <summary>
    /// Writing: the codec that compresses each row block (<see cref="RowBlockCodec.None"/>, the default, writes them
    /// raw). The writer decides per block: a block that compression does not make smaller (small ones, say) is written
    /// raw. Compressed blocks shrink a payload on any binding, also one without a compressing message encoder;
    /// docs/compression.md says when that pays against compressing the whole message. A reader needs no setting for
    /// it; readers before compressed blocks refuse them.
    /// </summary>
    public RowBlockCodec BlockCodec
    {
        get;
        init
        {
            if (!Enum.IsDefined(value))
            {
                throw new ArgumentOutOfRangeException(nameof(BlockCodec), value, "Not a row block codec.");
            }

            CheckLevel(value, BlockCompressionLevel, nameof(BlockCodec));
            field = value;
        }
    }

    /// <summary>
    /// Writing: the level of <see cref="BlockCodec"/>, or null (the default) for the codec's default (LZ4 0, zstd 3,
    /// Brotli 4, DEFLATE 6). Checked against the codec whichever of the two is set last: LZ4 0 and 3–12, zstd 1–19,
    /// Brotli 0–11, DEFLATE 2–9 (zlib-ng's level 1 writes larger output than its level 2 at about the same speed).
    /// </summary>
    public int? BlockCompressionLevel
    {
        get;
        init
        {
            CheckLevel(BlockCodec, value, nameof(BlockCompressionLevel));
            field = value;
        }
    }

    /// <summary>
    /// Both sides: extra column types the caller allows (enums of a typed DataSet, or types with their own byte codec),
    /// each under a stable key. Nothing outside the built-in closed table and this list is ever written or read.
    /// </summary>
    public IReadOnlyList<SurrogateColumnType> ExtraColumnTypes
    {
        get;
        init
        {
            ArgumentNullException.ThrowIfNull(value, nameof(ExtraColumnTypes));
            field = value;
        }
    } = [];

    internal SurrogateColumnType? FindExtra(Type type)
    {
        foreach (var extra in ExtraColumnTypes)
        {
            if (extra.ClrType == type)
            {
                return extra;
            }
        }

        return null;
    }

    internal SurrogateColumnType? FindExtra(string key)
    {
        foreach (var extra in ExtraColumnTypes)
        {
            if (string.Equals(extra.Key, key, StringComparison.Ordinal))
            {
                return extra;
            }
        }

        return null;
    }

    /// <summary>The level row blocks are compressed at: <see cref="BlockCompressionLevel"/> or the codec's default.</summary>
    internal int EffectiveBlockLevel => BlockCompressionLevel ?? BlockCodec switch
    {
        RowBlockCodec.Deflate => 6,
        RowBlockCodec.Brotli => 4,
        RowBlockCodec.Zstd => 3,
        _ => 0,
    };

    private static void CheckLevel(RowBlockCodec codec, int? level, string name)
    {
        if (level is not int value)
        {
            return;
        }

        var (min, max) = codec switch
        {
            RowBlockCodec.Deflate => (2, 9),
            RowBlockCodec.Brotli => (0, 11),
            RowBlockCodec.Zstd => (1, 19),
            RowBlockCodec.Lz4 => (0, 12),
            _ => (0, 19),
        };
        if (value < min || value > max || (codec == RowBlockCodec.Lz4 && value is 1 or 2))
        {
            throw new ArgumentOutOfRangeException(name, value, codec == RowBlockCodec.None
                ? $"A row block compression level is {min} to {max}."
                : $"{codec} row blocks take levels {(codec == RowBlockCodec.Lz4 ? "0 and 3" : min.ToString(System.Globalization.CultureInfo.InvariantCulture))} to {max}.");
        }
    }

    // Called from init accessors, where the caller's member name is the property's.
    private static T Positive<T>(T value, [CallerMemberName] string name = "")
        where T : INumber<T> => value > T.Zero ? value : throw new ArgumentOutOfRangeException(name, value, "Must be at least 1.");

    private static T NotNegative<T>(T value, [CallerMemberName] string name = "")
        where T : INumber<T> => value >= T.Zero ? value : throw new ArgumentOutOfRangeException(name, value, "Must not be negative.");
}
