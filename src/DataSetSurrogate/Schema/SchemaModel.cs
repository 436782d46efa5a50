using System.Data;
using Surrogate.Columns;

namespace Surrogate.Schema;

// What the reader decoded from the schema messages, before anything is built from it.
internal sealed class HeaderModel
{
    public string DataSetName { get; set; } = "NewDataSet";

    public string Namespace { get; set; } = "";

    public string Prefix { get; set; } = "";

    public bool CaseSensitive { get; set; }

    public string? Locale { get; set; }

    /// <summary>Whether the writer's DataSet had its Locale set (null: a writer before the flag).</summary>
    public bool? LocaleSet { get; set; }

    public bool EnforceConstraints { get; set; } = true;

    public List<KeyValuePair<string, object?>>? ExtendedProperties { get; set; }
}

internal sealed class ColumnModel
{
    public string Name { get; set; } = "";

    public TypeTag Tag { get; set; }

    public string? ExtensionKey { get; set; }

    public bool AllowDBNull { get; set; } = true;

    public object? DefaultValue { get; set; }

    public int MaxLength { get; set; } = -1;

    public bool ReadOnly { get; set; }

    public string? Caption { get; set; }

    public MappingType ColumnMapping { get; set; } = MappingType.Element;

    public bool AutoIncrement { get; set; }

    public long AutoIncrementSeed { get; set; }

    public long AutoIncrementStep { get; set; } = 1;

    public long? AutoIncrementNext { get; set; }

    public DataSetDateTime? DateTimeMode { get; set; }

    public string? Namespace { get; set; }

    public string? Prefix { get; set; }

    public string? Expression { get; set; }

    public List<KeyValuePair<string, object?>>? ExtendedProperties { get; set; }
}

internal sealed class UniqueModel
{
    public string Name { get; set; } = "";

    public int[] Columns { get; set; } = [];

    public bool IsPrimaryKey { get; set; }

    public List<KeyValuePair<string, object?>>? ExtendedProperties { get; set; }
}

internal sealed class TableModel
{
    public string Name { get; set; } = "";

    public string Namespace { get; set; } = "";

    public string Prefix { get; set; } = "";

    public bool? CaseSensitive { get; set; }

    /// <summary>Whether the writer's table had CaseSensitive set rather than inherited (null: a writer before the flag).</summary>
    public bool? CaseSensitiveSet { get; set; }

    public string? Locale { get; set; }

    /// <summary>Whether the writer's table had Locale set rather than inherited (null: a writer before the flag).</summary>
    public bool? LocaleSet { get; set; }

    public int MinimumCapacity { get; set; } = 50;

    public string DisplayExpression { get; set; } = "";

    public List<KeyValuePair<string, object?>>? ExtendedProperties { get; set; }

    public List<ColumnModel> Columns { get; } = [];

    public int[] PrimaryKey { get; set; } = [];

    public List<UniqueModel> Uniques { get; } = [];

    /// <summary>Rows the writer had; a hint for sizing storage only.</summary>
    public long RecordCountHint { get; set; }
}

internal sealed class ForeignKeyModel
{
    public string Name { get; set; } = "";

    public int ChildTable { get; set; }

    public int[] ChildColumns { get; set; } = [];

    public int ParentTable { get; set; }

    public int[] ParentColumns { get; set; } = [];

    public Rule DeleteRule { get; set; } = Rule.Cascade;

    public Rule UpdateRule { get; set; } = Rule.Cascade;

    public AcceptRejectRule AcceptRejectRule { get; set; }

    public List<KeyValuePair<string, object?>>? ExtendedProperties { get; set; }
}

internal sealed class RelationModel
{
    public string Name { get; set; } = "";

    public int ParentTable { get; set; }

    public int[] ParentColumns { get; set; } = [];

    public int ChildTable { get; set; }

    public int[] ChildColumns { get; set; } = [];

    public bool Nested { get; set; }

    public bool CreateConstraints { get; set; }

    public List<KeyValuePair<string, object?>>? ExtendedProperties { get; set; }
}

internal sealed class TailModel
{
    public List<ForeignKeyModel> ForeignKeys { get; } = [];

    public List<RelationModel> Relations { get; } = [];
}
