using System.Collections;
using System.Data;
using System.Data.SqlTypes;
using System.Globalization;
using Xunit.Sdk;

namespace Surrogate.Tests.Fixtures;

/// <summary>
/// Field-by-field comparison of two DataSets or DataTables: schema, constraints, relations, and every row's state,
/// versions and errors, with exact value semantics (double bits, decimal scale, DateTime kind, SqlString LCID).
/// </summary>
public static class DataSetAssert
{
    public static void Equivalent(DataSet expected, DataSet actual)
    {
        Same(expected.DataSetName, actual.DataSetName, "DataSet.DataSetName");
        Same(expected.Namespace, actual.Namespace, "DataSet.Namespace");
        Same(expected.Prefix, actual.Prefix, "DataSet.Prefix");
        Same(expected.CaseSensitive, actual.CaseSensitive, "DataSet.CaseSensitive");
        Same(expected.Locale.Name, actual.Locale.Name, "DataSet.Locale");
        Same(expected.EnforceConstraints, actual.EnforceConstraints, "DataSet.EnforceConstraints");
        Properties(expected.ExtendedProperties, actual.ExtendedProperties, "DataSet.ExtendedProperties");
        Same(expected.Tables.Count, actual.Tables.Count, "DataSet.Tables.Count");
        for (var i = 0; i < expected.Tables.Count; i++)
        {
            Equivalent(expected.Tables[i], actual.Tables[i]);
        }

        Same(expected.Relations.Count, actual.Relations.Count, "DataSet.Relations.Count");
        for (var i = 0; i < expected.Relations.Count; i++)
        {
            Relation(expected.Relations[i], actual.Relations[i]);
        }
    }

    public static void Equivalent(DataTable expected, DataTable actual)
    {
        var t = $"table '{expected.TableName}'";
        Same(expected.TableName, actual.TableName, $"{t} name");
        Same(expected.Namespace, actual.Namespace, $"{t} Namespace");
        Same(expected.Prefix, actual.Prefix, $"{t} Prefix");
        Same(expected.CaseSensitive, actual.CaseSensitive, $"{t} CaseSensitive");
        Same(expected.Locale.Name, actual.Locale.Name, $"{t} Locale");
        Same(expected.DisplayExpression, actual.DisplayExpression, $"{t} DisplayExpression");
        Same(expected.MinimumCapacity, actual.MinimumCapacity, $"{t} MinimumCapacity");
        Properties(expected.ExtendedProperties, actual.ExtendedProperties, $"{t} ExtendedProperties");
        Same(expected.Columns.Count, actual.Columns.Count, $"{t} column count");
        for (var i = 0; i < expected.Columns.Count; i++)
        {
            Column(expected.Columns[i], actual.Columns[i], t);
        }

        Same(Names(expected.PrimaryKey), Names(actual.PrimaryKey), $"{t} PrimaryKey");
        Constraints(expected, actual, t);
        Rows(expected, actual, t);
    }

    private static void Column(DataColumn e, DataColumn a, string t)
    {
        var c = $"{t} column '{e.ColumnName}'";
        Same(e.ColumnName, a.ColumnName, $"{c} name");
        Same(e.Ordinal, a.Ordinal, $"{c} Ordinal");
        Same(e.DataType, a.DataType, $"{c} DataType");
        Same(e.AllowDBNull, a.AllowDBNull, $"{c} AllowDBNull");
        Same(Describe(e.DefaultValue), Describe(a.DefaultValue), $"{c} DefaultValue");
        Same(e.MaxLength, a.MaxLength, $"{c} MaxLength");
        Same(e.ReadOnly, a.ReadOnly, $"{c} ReadOnly");
        Same(e.Caption, a.Caption, $"{c} Caption");
        Same(e.Unique, a.Unique, $"{c} Unique");
        Same(e.ColumnMapping, a.ColumnMapping, $"{c} ColumnMapping");
        Same(e.AutoIncrement, a.AutoIncrement, $"{c} AutoIncrement");
        Same(e.AutoIncrementSeed, a.AutoIncrementSeed, $"{c} AutoIncrementSeed");
        Same(e.AutoIncrementStep, a.AutoIncrementStep, $"{c} AutoIncrementStep");
        Same(e.Expression, a.Expression, $"{c} Expression");
        Same(e.DateTimeMode, a.DateTimeMode, $"{c} DateTimeMode");
        Same(e.Namespace, a.Namespace, $"{c} Namespace");
        Same(e.Prefix, a.Prefix, $"{c} Prefix");
        Properties(e.ExtendedProperties, a.ExtendedProperties, $"{c} ExtendedProperties");
    }

    private static void Constraints(DataTable expected, DataTable actual, string t)
    {
        var e = expected.Constraints.Cast<Constraint>().Select(DescribeConstraint).Order(StringComparer.Ordinal).ToArray();
        var a = actual.Constraints.Cast<Constraint>().Select(DescribeConstraint).Order(StringComparer.Ordinal).ToArray();
        Same(string.Join("\n", e), string.Join("\n", a), $"{t} constraints");
    }

    private static string DescribeConstraint(Constraint constraint) => constraint switch
    {
        UniqueConstraint u => $"unique {u.ConstraintName} ({Names(u.Columns)}) pk={u.IsPrimaryKey} {Props(u.ExtendedProperties)}",
        ForeignKeyConstraint f => $"fk {f.ConstraintName} {f.RelatedTable.TableName}({Names(f.RelatedColumns)}) -> ({Names(f.Columns)}) " +
            $"update={f.UpdateRule} delete={f.DeleteRule} acceptReject={f.AcceptRejectRule} {Props(f.ExtendedProperties)}",
        _ => constraint.GetType().Name,
    };

    private static void Relation(DataRelation e, DataRelation a)
    {
        var r = $"relation '{e.RelationName}'";
        Same(e.RelationName, a.RelationName, $"{r} name");
        Same(e.ParentTable.TableName, a.ParentTable.TableName, $"{r} parent table");
        Same(e.ChildTable.TableName, a.ChildTable.TableName, $"{r} child table");
        Same(Names(e.ParentColumns), Names(a.ParentColumns), $"{r} parent columns");
        Same(Names(e.ChildColumns), Names(a.ChildColumns), $"{r} child columns");
        Same(e.Nested, a.Nested, $"{r} Nested");
        Same(e.ChildKeyConstraint?.ConstraintName, a.ChildKeyConstraint?.ConstraintName, $"{r} ChildKeyConstraint");
        Same(e.ParentKeyConstraint?.ConstraintName, a.ParentKeyConstraint?.ConstraintName, $"{r} ParentKeyConstraint");
        Properties(e.ExtendedProperties, a.ExtendedProperties, $"{r} ExtendedProperties");
    }

    private static void Rows(DataTable expected, DataTable actual, string t)
    {
        Same(expected.Rows.Count, actual.Rows.Count, $"{t} row count");
        for (var i = 0; i < expected.Rows.Count; i++)
        {
            var e = expected.Rows[i];
            var a = actual.Rows[i];
            var r = $"{t} row {i}";
            Same(e.RowState, a.RowState, $"{r} RowState");
            Same(e.RowError, a.RowError, $"{r} RowError");
            Same(ColumnErrors(e), ColumnErrors(a), $"{r} column errors");
            foreach (var version in new[] { DataRowVersion.Original, DataRowVersion.Current })
            {
                Same(e.HasVersion(version), a.HasVersion(version), $"{r} HasVersion({version})");
                if (!e.HasVersion(version))
                {
                    continue;
                }

                for (var c = 0; c < expected.Columns.Count; c++)
                {
                    if (expected.Columns[c].Expression.Length > 0 && version == DataRowVersion.Original)
                    {
                        continue; // An expression's original value is recomputed, not stored.
                    }

                    Same(Describe(e[c, version]), Describe(a[c, version]), $"{r} column '{expected.Columns[c].ColumnName}' {version}");
                }
            }
        }
    }

    private static string ColumnErrors(DataRow row) =>
        string.Join("; ", row.GetColumnsInError().Select(c => $"{c.ColumnName}={row.GetColumnError(c)}"));

    /// <summary>A string that differs whenever two values differ in any observable way.</summary>
    public static string Describe(object? value) => value switch
    {
        null => "<null>",
        DBNull => "<DBNull>",
        double d => $"double:{BitConverter.DoubleToInt64Bits(d):X16}",
        float f => $"float:{BitConverter.SingleToInt32Bits(f):X8}",
        decimal m => $"decimal:{string.Join(',', decimal.GetBits(m))}",
        DateTime dt => $"DateTime:{dt.Ticks}:{dt.Kind}",
        DateTimeOffset dto => $"DateTimeOffset:{dto.Ticks}:{dto.Offset.Ticks}",
        byte[] b => $"byte[{b.Length}]:{Convert.ToHexString(b.Length > 4096 ? System.Security.Cryptography.SHA256.HashData(b) : b)}",
        string s => $"string:{s.Length}:{s}",
        SqlString ss => ss.IsNull ? "SqlString:Null" : $"SqlString:{ss.Value}:{ss.LCID}:{ss.SqlCompareOptions}",
        SqlBinary sb => sb.IsNull ? "SqlBinary:Null" : $"SqlBinary:{Convert.ToHexString(sb.Value)}",
        SqlBytes sbs => sbs.IsNull ? "SqlBytes:Null" : $"SqlBytes:{Convert.ToHexString(sbs.Value)}",
        SqlChars sc => sc.IsNull ? "SqlChars:Null" : $"SqlChars:{new string(sc.Value)}",
        SqlDecimal sd => sd.IsNull ? "SqlDecimal:Null" : $"SqlDecimal:{sd.Precision}:{sd.Scale}:{sd}",
        SqlDouble sdo => sdo.IsNull ? "SqlDouble:Null" : $"SqlDouble:{BitConverter.DoubleToInt64Bits(sdo.Value):X16}",
        INullable n when n.IsNull => $"{value.GetType().Name}:Null",
        IFormattable f => $"{value.GetType().Name}:{f.ToString(null, CultureInfo.InvariantCulture)}",
        _ => $"{value.GetType().Name}:{value}",
    };

    private static void Properties(PropertyCollection expected, PropertyCollection actual, string what) =>
        Same(Props(expected), Props(actual), what);

    private static string Props(PropertyCollection properties) => string.Join(";", properties.Cast<DictionaryEntry>()
        .Select(p => $"{Describe(p.Key)}={Describe(p.Value)}").Order(StringComparer.Ordinal));

    private static string Names(IEnumerable<DataColumn> columns) => string.Join(",", columns.Select(c => c.ColumnName));

    private static void Same<T>(T expected, T actual, string what)
    {
        if (!EqualityComparer<T>.Default.Equals(expected, actual))
        {
            throw new XunitException($"{what} differs.\nExpected: {expected}\nActual:   {actual}");
        }
    }
}
