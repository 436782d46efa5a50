namespace Surrogate;

/// <summary>
/// Limits and extension points for reading and writing payloads. Immutable; <see cref="Default"/> is safe for
/// untrusted input. Every count and length in a payload is checked against these limits before anything is
/// allocated for it.
/// </summary>
public sealed record SurrogateOptions
{
    /// <summary>The hard ceiling on rows in one row block, whatever <see cref="RowsPerBlock"/> says.</summary>
    public const int MaxRowsPerBlock = 65_536;

    /// <summary>The safe defaults.</summary>
    public static SurrogateOptions Default { get; } = new();

    /// <summary>Most tables in one payload (default 1,024).</summary>
    public int MaxTables { get; init; } = 1024;

    /// <summary>Most columns in one table (default 4,096).</summary>
    public int MaxColumnsPerTable { get; init; } = 4096;

    /// <summary>Most rows over all tables of one payload (default 10,000,000).</summary>
    public long MaxRows { get; init; } = 10_000_000;

    /// <summary>Most payload bytes read (default 1 GiB).</summary>
    public long MaxTotalBytes { get; init; } = 1L << 30;

    /// <summary>Longest string value in UTF-8 bytes (default 64 MiB).</summary>
    public int MaxStringLength { get; init; } = 64 << 20;

    /// <summary>Longest binary value in bytes (default 64 MiB).</summary>
    public int MaxBinaryLength { get; init; } = 64 << 20;

    /// <summary>Most relations in one payload (default 4,096).</summary>
    public int MaxRelations { get; init; } = 4096;

    /// <summary>Most constraints in one payload, unique and foreign-key together (default 4,096).</summary>
    public int MaxConstraints { get; init; } = 4096;

    /// <summary>Longest table, column, relation, constraint or namespace name in characters (default 1,024).</summary>
    public int MaxNameLength { get; init; } = 1024;

    /// <summary>Longest column expression in characters (default 4,096).</summary>
    public int MaxExpressionLength { get; init; } = 4096;

    /// <summary>Most extended properties on one DataSet, table, column, constraint or relation (default 1,024).</summary>
    public int MaxExtendedProperties { get; init; } = 1024;

    /// <summary>Rows per row block when writing (default 4,096; at most <see cref="MaxRowsPerBlock"/>).</summary>
    public int RowsPerBlock { get; init; } = 4096;

    /// <summary>
    /// When streaming an <see cref="System.Data.IDataReader"/>, a block is closed early once its strings and byte
    /// arrays reach about this many bytes (default 4 MiB), so wide or long values do not inflate memory.
    /// </summary>
    public int BlockByteBudget { get; init; } = 4 << 20;

    /// <summary>
    /// Extra column types the caller allows (enums of a typed DataSet, or types with their own byte codec), each
    /// under a stable key. Nothing outside the built-in closed table and this list is ever written or read.
    /// </summary>
    public IReadOnlyList<SurrogateColumnType> ExtraColumnTypes { get; init; } = [];

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
}
