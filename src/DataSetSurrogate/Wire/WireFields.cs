namespace Surrogate.Wire;

// Field numbers of every message; docs/datasetsurrogate.proto is the reference and must agree.
internal static class PayloadField
{
    public const int Magic = 1, Version = 2, Kind = 3, Header = 4, Table = 5, Tail = 6, Rows = 7;
    public const uint MagicValue = 0x50535344; // "DSSP" as little-endian fixed32
    public const int CurrentVersion = 1;
}

internal enum PayloadKind
{
    DataSet = 1,
    DataTable = 2,
    DataReader = 3,
}

internal static class HeaderField
{
    public const int Name = 1, Namespace = 2, Prefix = 3, CaseSensitive = 4, Locale = 5, EnforceConstraints = 6,
        ExtendedProperty = 7, LocaleSet = 8;
}

internal static class PropertyField
{
    public const int Key = 1, Value = 2;
}

internal static class TableField
{
    public const int Name = 1, Namespace = 2, Prefix = 3, CaseSensitive = 4, Locale = 5, MinimumCapacity = 6,
        DisplayExpression = 7, ExtendedProperty = 8, Column = 9, PrimaryKey = 10, Unique = 11, RecordCountHint = 12,
        CaseSensitiveSet = 13, LocaleSet = 14;
}

internal static class ColumnField
{
    public const int Name = 1, Type = 2, ExtensionKey = 3, AllowDBNull = 4, DefaultValue = 5, MaxLength = 6,
        ReadOnly = 7, Caption = 8, ColumnMapping = 9, AutoIncrement = 10, AutoIncrementSeed = 11,
        AutoIncrementStep = 12, AutoIncrementNext = 13, DateTimeMode = 14, Namespace = 15, Prefix = 16,
        Expression = 17, ExtendedProperty = 18;
}

internal static class UniqueField
{
    public const int Name = 1, Columns = 2, IsPrimaryKey = 3, ExtendedProperty = 4;
}

internal static class BlockField
{
    public const int RowCount = 1, States = 2, Column = 3, Original = 4, Error = 5, Table = 6;

    // A compressed block holds these three only, in this order; its data decompresses to the fields above.
    public const int Codec = 7, RawLength = 8, Compressed = 9;
}

internal static class RowErrorField
{
    public const int Row = 1, Text = 2, Columns = 3, ColumnTexts = 4;
}

internal static class DataField
{
    public const int NullBitmap = 1, Ints = 2, IntEncoding = 3, Fixed = 4, Strings = 5, Dictionary = 6,
        DictionaryIndex = 7, Blobs = 8, Values = 9, Aux = 10, ValueTags = 11;
}

internal static class ValueField
{
    public const int Tag = 1, Ints = 2, Fixed = 4, Strings = 5, Blobs = 8, Aux = 10;
}

internal static class TailField
{
    public const int ForeignKey = 1, Relation = 2;
}

internal static class ForeignKeyField
{
    public const int Name = 1, ChildTable = 2, ChildColumns = 3, ParentTable = 4, ParentColumns = 5, DeleteRule = 6,
        UpdateRule = 7, AcceptRejectRule = 8, ExtendedProperty = 9;
}

internal static class RelationField
{
    public const int Name = 1, ParentTable = 2, ParentColumns = 3, ChildTable = 4, ChildColumns = 5, Nested = 6,
        CreateConstraints = 7, ExtendedProperty = 8;
}

/// <summary>Row states as they travel (the packed enum in a row block).</summary>
internal enum WireRowState
{
    Unchanged = 0,
    Added = 1,
    Modified = 2,
    Deleted = 3,
}

/// <summary>How an integer stream is laid out.</summary>
internal enum IntEncoding
{
    Plain = 0,
    Delta = 1,
}
