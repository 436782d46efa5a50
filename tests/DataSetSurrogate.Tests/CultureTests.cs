using System.ComponentModel;
using System.Data;
using System.Globalization;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// Locale and case sensitivity come back exactly, set or inherited, whatever the writer's and the reader's current
/// culture, and the bytes depend on the DataSet alone.
/// </summary>
public sealed class CultureTests
{
    public static TheoryData<string, string> WriterAndReader()
    {
        var data = new TheoryData<string, string>();
        foreach (var writer in Cultures.All)
        {
            foreach (var reader in Cultures.All)
            {
                data.Add(writer, reader);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(WriterAndReader))]
    public void A_DataSet_and_its_tables_come_back_with_the_same_locale_and_case_sensitivity_set_or_inherited(string writer, string reader)
    {
        foreach (var source in new[] { Defaults(), Explicit(writer) })
        {
            var payload = Cultures.Under(writer, () => DataSetSerializer.Serialize(source));
            var result = Cultures.Under(reader, () => DataSetSerializer.Deserialize(payload));
            Cultures.Under(reader, () => AssertSameCultureState(source, result));
        }
    }

    [Theory]
    [MemberData(nameof(WriterAndReader))]
    public void A_table_comes_back_with_the_same_locale_and_case_sensitivity_set_or_inherited(string writer, string reader)
    {
        foreach (var source in Defaults().Tables.Cast<DataTable>().Append(Cultures.Under("de-DE", () => new DataTable("Alone"))))
        {
            var payload = Cultures.Under(writer, () => DataSetSerializer.Serialize(source));
            var result = Cultures.Under(reader, () => DataSetSerializer.DeserializeTable(payload));
            Assert.Null(result.DataSet);
            Assert.Equal(State(source), State(result));
            // Inherited values follow a DataSet the table joins; set ones stay.
            Assert.Equal(State(Joined(source.Copy())), State(Joined(result)));
        }
    }

    [Fact]
    public void The_bytes_are_the_same_under_every_writer_culture()
    {
        var source = Defaults();
        var payloads = Cultures.All.Select(c => Cultures.Under(c, () => DataSetSerializer.Serialize(source))).ToArray();
        Assert.All(payloads, p => Assert.Equal(payloads[0], p));
    }

    /// <summary>
    /// Made under ja-JP, so nothing here is any test culture's default but ja-JP's: a DataSet whose Locale was never
    /// set, case-sensitive; a table inheriting both, one setting both to other values, one setting both to the same
    /// values, and one setting only its locale.
    /// </summary>
    private static DataSet Defaults() => Cultures.Under("ja-JP", () =>
    {
        var ds = new DataSet("Defaults") { CaseSensitive = true };
        ds.Tables.Add("Inherits");
        var other = ds.Tables.Add("SetsOther");
        other.CaseSensitive = false;
        other.Locale = CultureInfo.GetCultureInfo("de-DE");
        var same = ds.Tables.Add("SetsSame");
        same.CaseSensitive = true;
        same.Locale = CultureInfo.GetCultureInfo("ja-JP");
        ds.Tables.Add("SetsLocale").Locale = CultureInfo.GetCultureInfo("tr-TR");
        return ds;
    });

    /// <summary>The case the culture leak lost: a Locale set to the writer's own culture.</summary>
    private static DataSet Explicit(string writer)
    {
        var ds = new DataSet("Explicit") { Locale = CultureInfo.GetCultureInfo(writer) };
        ds.Tables.Add("T").Columns.Add("Name", typeof(string));
        ds.Tables[0].Rows.Add("Istanbul");
        return ds;
    }

    private static void AssertSameCultureState(DataSet expected, DataSet actual)
    {
        Assert.Equal(State(expected), State(actual));
        Assert.Equal(expected.GetXmlSchema(), actual.GetXmlSchema());
        DataSetAssert.Equivalent(expected, actual);
        // Inherited values follow a change of the DataSet's; set ones stay. Try it on copies of both sides.
        Assert.Equal(State(Changed(expected.Copy())), State(Changed(actual.Copy())));
    }

    private static DataSet Changed(DataSet ds)
    {
        ds.CaseSensitive = !ds.CaseSensitive;
        ds.Locale = CultureInfo.GetCultureInfo(ds.Locale.Name == "fr-FR" ? "it-IT" : "fr-FR");
        return ds;
    }

    private static DataTable Joined(DataTable table)
    {
        var ds = new DataSet { Locale = CultureInfo.GetCultureInfo("fr-FR") };
        ds.CaseSensitive = !table.CaseSensitive;
        ds.Tables.Add(table);
        return table;
    }

    private static string State(DataSet ds) =>
        $"{ds.Locale.Name}/{(Set(ds, nameof(DataSet.Locale)) ? "set" : "default")} cs={ds.CaseSensitive}; " +
        string.Join("; ", ds.Tables.Cast<DataTable>().Select(State));

    private static string State(DataTable t) =>
        $"{t.TableName}: {t.Locale.Name}/{(Set(t, nameof(DataTable.Locale)) ? "set" : "inherited")} cs={t.CaseSensitive}/{(Set(t, nameof(DataTable.CaseSensitive)) ? "set" : "inherited")}";

    private static bool Set(object component, string property) =>
        TypeDescriptor.GetProperties(component)[property]!.ShouldSerializeValue(component);
}
