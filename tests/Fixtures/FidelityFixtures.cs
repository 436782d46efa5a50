using System.Data;
using System.Globalization;

namespace Surrogate.Tests.Fixtures;

/// <summary>
/// Named, deterministic DataSets covering the fidelity checklist. Every factory returns a fresh instance; values use
/// fixed dates and seeds and the invariant culture so golden payloads stay stable.
/// </summary>
public static partial class FidelityFixtures
{
    private static readonly Dictionary<string, Func<DataSet>> Factories = new(StringComparer.Ordinal)
    {
        ["empty-dataset"] = () => new DataSet("Empty"),
        ["zero-row-tables"] = ZeroRowTables,
        ["dataset-properties"] = DataSetProperties,
        ["same-name-tables"] = SameNameTables,
        ["primitive-edges"] = PrimitiveEdges,
        ["strings"] = Strings,
        ["date-time-modes"] = DateTimeModes,
        ["temporal"] = Temporal,
        ["binary-and-big"] = BinaryAndBig,
        ["sql-types"] = SqlTypesTable,
        ["object-column"] = ObjectColumn,
        ["column-properties"] = ColumnProperties,
        ["column-mappings"] = ColumnMappings,
        ["auto-increment"] = AutoIncrement,
        ["expressions"] = Expressions,
        ["constraints-and-relations"] = ConstraintsAndRelations,
        ["self-nested"] = SelfNested,
        ["row-states"] = RowStates,
        ["row-errors"] = RowErrors,
        ["violating-data"] = ViolatingData,
        ["extended-properties"] = ExtendedProperties,
        ["orders"] = () => Orders(1_000),
    };

    /// <summary>Fixture names, for xunit's MemberData.</summary>
    public static IEnumerable<object[]> All => Factories.Keys.Select(k => new object[] { k });

    /// <summary>Builds the named fixture.</summary>
    public static DataSet Create(string name) => Factories[name]();

    private static DataSet ZeroRowTables()
    {
        var ds = new DataSet("ZeroRows");
        var t = ds.Tables.Add("Nothing");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("Name", typeof(string));
        ds.Tables.Add("NoColumns");
        return ds;
    }

    private static DataSet DataSetProperties()
    {
        var ds = new DataSet("Props")
        {
            Namespace = "urn:fixtures:props",
            Prefix = "fx",
            CaseSensitive = true,
            Locale = CultureInfo.GetCultureInfo("tr-TR"),
            EnforceConstraints = false,
        };
        var t = ds.Tables.Add("Items");
        t.Namespace = "urn:fixtures:items";
        t.Prefix = "it";
        t.CaseSensitive = false;
        t.Locale = CultureInfo.GetCultureInfo("de-DE");
        t.MinimumCapacity = 300;
        t.Columns.Add("Name", typeof(string));
        t.DisplayExpression = "Name + '!'";
        t.Rows.Add("Istanbul");
        t.Rows.Add("ISTANBUL");
        t.AcceptChanges();
        return ds;
    }

    private static DataSet SameNameTables()
    {
        var ds = new DataSet("SameNames");
        var a = new DataTable("Item", "urn:a");
        a.Columns.Add("A", typeof(int));
        a.Rows.Add(1);
        var b = new DataTable("Item", "urn:b");
        b.Columns.Add("B", typeof(string));
        b.Rows.Add("two");
        ds.Tables.Add(a);
        ds.Tables.Add(b);
        return ds;
    }

    private static DataSet PrimitiveEdges()
    {
        var ds = new DataSet("Primitives");
        var t = ds.Tables.Add("Edges");
        Type[] types =
        [
            typeof(bool), typeof(byte), typeof(sbyte), typeof(short), typeof(ushort), typeof(int), typeof(uint),
            typeof(long), typeof(ulong), typeof(float), typeof(double), typeof(decimal), typeof(char),
        ];
        foreach (var type in types)
        {
            t.Columns.Add(type.Name, type);
        }

        t.Rows.Add(false, byte.MinValue, sbyte.MinValue, short.MinValue, ushort.MinValue, int.MinValue, uint.MinValue,
            long.MinValue, ulong.MinValue, float.MinValue, double.MinValue, decimal.MinValue, '\0');
        t.Rows.Add(true, byte.MaxValue, sbyte.MaxValue, short.MaxValue, ushort.MaxValue, int.MaxValue, uint.MaxValue,
            long.MaxValue, ulong.MaxValue, float.MaxValue, double.MaxValue, decimal.MaxValue, '\uFFFF');
        t.Rows.Add(true, (byte)1, (sbyte)-1, (short)-1, (ushort)1, -1, 1u, -1L, 1UL, float.NaN, double.NaN, 1.10m, 'x');
        t.Rows.Add(false, (byte)2, (sbyte)2, (short)2, (ushort)2, 2, 2u, 2L, 2UL, float.PositiveInfinity,
            double.NegativeInfinity, 0.000m, 'A');
        t.Rows.Add(false, (byte)3, (sbyte)3, (short)3, (ushort)3, 3, 3u, 3L, 3UL, -0.0f, -0.0, -1.2345678901234567890123456789m, 'é');
        t.Rows.Add(false, (byte)4, (sbyte)4, (short)4, (ushort)4, 4, 4u, 4L, 4UL, float.Epsilon, double.Epsilon, 100m, 'ß');
        var nulls = t.NewRow();
        t.Rows.Add(nulls);
        t.AcceptChanges();
        return ds;
    }

    private static DataSet Strings()
    {
        var ds = new DataSet("Strings");
        var t = ds.Tables.Add("Text");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("Value", typeof(string));
        string?[] values =
        [
            null, "", " ", "  padded  ", "\0", "a\0b", "line1\r\nline2", "line1\nline2", "\r", "\t tab",
            "\u0001\u001f control", "\uFFFE\uFFFF", "emoji \U0001F600 pair", "ümlaut ı İ", new string('x', 100_000),
        ];
        for (var i = 0; i < values.Length; i++)
        {
            t.Rows.Add(i, (object?)values[i] ?? DBNull.Value);
        }

        t.AcceptChanges();
        return ds;
    }

    private static DataSet DateTimeModes()
    {
        var ds = new DataSet("Dates");
        var t = ds.Tables.Add("Modes");
        foreach (var mode in Enum.GetValues<DataSetDateTime>())
        {
            t.Columns.Add(mode.ToString(), typeof(DateTime)).DateTimeMode = mode;
        }

        var local = new DateTime(2011, 3, 27, 1, 30, 15, DateTimeKind.Local).AddTicks(1234567);
        var utc = new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(9999999);
        var plain = new DateTime(1999, 12, 31, 12, 0, 0, DateTimeKind.Unspecified).AddTicks(1);
        t.Rows.Add(local, plain, local, utc);
        t.Rows.Add(plain, plain, local, utc);
        t.Rows.Add(DateTime.SpecifyKind(DateTime.MinValue, DateTimeKind.Local), DateTime.MinValue, DateTime.SpecifyKind(DateTime.MinValue, DateTimeKind.Local), DateTime.SpecifyKind(DateTime.MinValue, DateTimeKind.Utc));
        t.Rows.Add(DateTime.SpecifyKind(DateTime.MaxValue, DateTimeKind.Local), DateTime.MaxValue, DateTime.SpecifyKind(DateTime.MaxValue.AddDays(-2), DateTimeKind.Local), DateTime.SpecifyKind(DateTime.MaxValue, DateTimeKind.Utc));
        t.Rows.Add(DBNull.Value, DBNull.Value, DBNull.Value, DBNull.Value);
        t.AcceptChanges();
        return ds;
    }

    private static DataSet Temporal()
    {
        var ds = new DataSet("Temporal");
        var t = ds.Tables.Add("Values");
        t.Columns.Add("Offset", typeof(DateTimeOffset));
        t.Columns.Add("Span", typeof(TimeSpan));
        t.Columns.Add("Date", typeof(DateOnly));
        t.Columns.Add("Time", typeof(TimeOnly));
        t.Columns.Add("Key", typeof(Guid));
        t.Rows.Add(new DateTimeOffset(2020, 1, 1, 0, 0, 0, TimeSpan.FromHours(14)), TimeSpan.MinValue, DateOnly.MinValue, TimeOnly.MinValue, Guid.Empty);
        t.Rows.Add(new DateTimeOffset(2020, 1, 1, 0, 0, 0, TimeSpan.FromHours(-14)), TimeSpan.MaxValue, DateOnly.MaxValue, TimeOnly.MaxValue, new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"));
        t.Rows.Add(DateTimeOffset.MinValue, TimeSpan.FromTicks(-7), new DateOnly(2026, 11, 22), new TimeOnly(13, 37, 0, 123), new Guid("ffffffff-ffff-ffff-ffff-ffffffffffff"));
        t.Rows.Add(DateTimeOffset.MaxValue, TimeSpan.FromTicks(12345678901), DBNull.Value, DBNull.Value, DBNull.Value);
        t.AcceptChanges();
        return ds;
    }

    private static DataSet BinaryAndBig()
    {
        var ds = new DataSet("Binary");
        var t = ds.Tables.Add("Blobs");
        t.Columns.Add("Bytes", typeof(byte[]));
        t.Columns.Add("Big", typeof(System.Numerics.BigInteger));
        t.Columns.Add("Link", typeof(Uri));
        var large = new byte[1 << 20];
        new Random(7).NextBytes(large);
        t.Rows.Add(DBNull.Value, System.Numerics.BigInteger.Parse("-123456789012345678901234567890123456789", CultureInfo.InvariantCulture), new Uri("https://example.org/a?b=c"));
        t.Rows.Add(Array.Empty<byte>(), System.Numerics.BigInteger.Pow(2, 300), new Uri("relative/path", UriKind.Relative));
        t.Rows.Add(large, System.Numerics.BigInteger.Zero, DBNull.Value);
        t.Rows.Add(new byte[] { 0, 1, 2, 255 }, DBNull.Value, new Uri("urn:isbn:0451450523"));
        t.AcceptChanges();
        return ds;
    }
}
