using System.Data;
using CsCheck;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests.Generated;

/// <summary>A generated column of any codec type with its properties.</summary>
internal sealed record ColumnSpec(string Name, Type Type, bool AllowNull, object? Default, bool ReadOnly, MappingType Mapping,
    string? Caption, DataSetDateTime Mode, int MaxLength, string? Namespace, string? Property);

/// <summary>A generated row: its state, original and (for Modified) current values of the generated columns, its
/// errors, and which earlier row (self-nested) or parent row it points at (-1: none).</summary>
internal sealed record RowSpec(DataRowState State, object[] Original, object[] Current, string? RowError, int ErrorColumn, int Parent);

/// <summary>A generated table. Every table has an int "Id" (row index, so keys stay unique); the flags add a primary
/// key, an AutoIncrement "Seq" with a named unique constraint, an expression column and a self-nested relation.</summary>
internal sealed record TableSpec(string Name, string? Namespace, string? Prefix, bool? CaseSensitive, string? Locale,
    bool PrimaryKey, bool AutoIncrement, long Seed, long Step, bool Expression, bool SelfNested, ColumnSpec[] Columns, RowSpec[] Rows);

/// <summary>The relation from the first table to the second (when there are two), with its rules.</summary>
internal sealed record RelationSpec(bool Constraints, bool Nested, Rule Update, Rule Delete, AcceptRejectRule AcceptReject, string? Property);

internal sealed record DataSetSpec(string Name, string Namespace, string Prefix, bool CaseSensitive, string Locale, bool Enforce,
    string? Property, TableSpec[] Tables, RelationSpec? Relation)
{
    public override string ToString() =>
        $"DataSet '{Name}' ns='{Namespace}' prefix='{Prefix}' caseSensitive={CaseSensitive} locale='{Locale}' enforce={Enforce} property={Property} relation={Relation}\n" +
        string.Join("\n", Tables.Select(t =>
            $"  {t with { Columns = [], Rows = [] }}\n" +
            string.Join("", t.Columns.Select(c => $"    column {c with { Default = null }} default={DataSetAssert.Describe(c.Default)}\n")) +
            string.Join("", t.Rows.Select(r => $"    row {r.State} error='{r.RowError}' errorColumn={r.ErrorColumn} parent={r.Parent} " +
                $"original=[{string.Join(", ", r.Original.Select(DataSetAssert.Describe))}] current=[{string.Join(", ", r.Current.Select(DataSetAssert.Describe))}]\n"))));
}

/// <summary>The generators: shrinking makes a failing spec small (fewer tables, columns and rows, plainer values).</summary>
internal static class SpecGens
{
    private static Gen<string> Locales => Gen.OneOf("en-US", "tr-TR", "de-DE", "ja-JP", "");

    private static Gen<string?> Property => Gen.Frequency(
        (2, Gen.Const((string?)null)), (1, ValueGens.Name("value").Select(v => (string?)v)));

    private static Gen<string?> Optional(Gen<string> gen) =>
        Gen.Frequency((2, Gen.Const((string?)null)), (1, gen.Select(v => (string?)v)));

    private static readonly Gen<ColumnSpec> Column =
        from type in Gen.OneOf(ValueGens.ColumnTypes)
        from name in ValueGens.Name("C")
        from allowNull in Gen.Frequency((3, Gen.Const(true)), (1, Gen.Const(false)))
        from hasDefault in Gen.Frequency((3, Gen.Const(false)), (1, Gen.Const(true)))
        from value in ValueGens.Of(type)
        from readOnly in Gen.Frequency((4, Gen.Const(false)), (1, Gen.Const(true)))
        from mapping in Gen.OneOf(MappingType.Element, MappingType.Element, MappingType.Attribute, MappingType.Hidden)
        from caption in Optional(ValueGens.Name("Caption "))
        from mode in Gen.Enum<DataSetDateTime>()
        from maxLength in Gen.OneOf(-1, 20, 100)
        from ns in Optional(Gen.Const("urn:column"))
        from property in Property
        select new ColumnSpec(name, type, allowNull, hasDefault ? value : null, readOnly, mapping, caption,
            type == typeof(DateTime) ? mode : DataSetDateTime.UnspecifiedLocal, type == typeof(string) ? maxLength : -1, ns, property);

    private static readonly Gen<TableSpec> Table =
        from name in ValueGens.Name("T")
        from ns in Optional(Gen.OneOf("urn:table", "urn:generated"))
        from prefix in Optional(Gen.Const("t"))
        from caseSensitive in Gen.Frequency((2, Gen.Const((bool?)null)), (1, Gen.Bool.Select(b => (bool?)b)))
        from locale in Optional(Locales)
        from flags in Gen.Bool.Array[5]
        from seed in Gen.Long[-5, 5]
        from step in Gen.OneOf(-2L, -1L, 1L, 3L)
        from columns in Column.Array[0, 5]
        from rows in Rows(DistinctNames(columns))
        select new TableSpec(name, ns, prefix, caseSensitive, locale, flags[0], flags[1], seed, step, flags[2], flags[3] && flags[4],
            DistinctNames(columns), rows);

    private static readonly Gen<RelationSpec> Relation =
        from constraints in Gen.Bool
        from nested in Gen.Bool
        from update in Gen.Enum<Rule>()
        from delete in Gen.Enum<Rule>()
        from acceptReject in Gen.Enum<AcceptRejectRule>()
        from property in Property
        select new RelationSpec(constraints, nested, update, delete, acceptReject, property);

    public static readonly Gen<DataSetSpec> DataSet =
        from name in ValueGens.Name("Set")
        from ns in Gen.OneOf("", "urn:generated")
        from prefix in Gen.OneOf("", "g")
        from caseSensitive in Gen.Bool
        from locale in Locales
        from enforce in Gen.Bool
        from property in Property
        from tables in Table.Array[1, 3]
        from relation in Gen.Frequency((1, Gen.Const((RelationSpec?)null)), (3, Relation.Select(r => (RelationSpec?)r)))
        select new DataSetSpec(name, ns, prefix, caseSensitive, locale, enforce, property, Related(Distinct(tables), relation), relation);

    private static Gen<RowSpec[]> Rows(ColumnSpec[] columns) => (
        from state in Gen.OneOf(DataRowState.Unchanged, DataRowState.Added, DataRowState.Modified, DataRowState.Deleted)
        from original in Values(columns)
        from current in Values(columns)
        from rowError in Optional(ValueGens.Name("row error "))
        from errorColumn in Gen.Int[-3, columns.Length - 1]
        from parent in Gen.Int[-1, 7]
        select new RowSpec(state, original, current, rowError, errorColumn, parent)).Array[0, 8];

    private static Gen<object[]> Values(ColumnSpec[] columns) => columns.Aggregate(
        Gen.Const(Array.Empty<object>()),
        (gen, column) => gen.SelectMany(values => ValueGens.Cell(column.Type, column.AllowNull).Select(v => (object[])[.. values, v])));

    // Names are unique in a DataSet's (case-insensitive) view: a suffix makes them so, and shrinking keeps it.
    private static ColumnSpec[] DistinctNames(ColumnSpec[] columns) => [.. columns.Select((c, i) => c with { Name = $"{c.Name}_{i}" })];

    // DataSet refuses a relation between tables whose Locale or CaseSensitive differ: the child takes the parent's.
    private static TableSpec[] Related(TableSpec[] tables, RelationSpec? relation) => relation is null || tables.Length < 2 ? tables
        : [tables[0], tables[1] with { CaseSensitive = tables[0].CaseSensitive, Locale = tables[0].Locale }, .. tables[2..]];

    private static TableSpec[] Distinct(TableSpec[] tables) => [.. tables.Select((t, i) => t with { Name = $"{t.Name}_{i}" })];
}
