using System.Data;
using System.Globalization;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>Failures the property tests (PropertyRoundTripTests) found, shrunk and kept as plain tests.</summary>
public sealed class GeneratedCaseTests
{
    /// <summary>A table added to a case-sensitive DataSet whose Locale was set does not inherit CaseSensitive: an
    /// explicitly case-sensitive table came back case-insensitive.</summary>
    [Theory]
    [InlineData("en-US")]
    [InlineData("tr-TR")]
    [InlineData("")]
    public void A_case_sensitive_table_in_a_case_sensitive_dataset_with_a_locale_stays_case_sensitive(string locale)
    {
        var ds = new DataSet("S") { CaseSensitive = true, Locale = CultureInfo.GetCultureInfo(locale) };
        var table = ds.Tables.Add("T");
        table.CaseSensitive = true;
        table.Columns.Add("Name", typeof(string));
        table.Rows.Add("a");

        var result = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds));

        Assert.True(result.Tables[0].CaseSensitive);
        DataSetAssert.Equivalent(ds, result);
    }

    /// <summary>A table in the DataSet's namespace, nested under a table in another namespace, came back in the
    /// parent's namespace: nesting makes a table that inherits its namespace inherit the parent's.</summary>
    [Fact]
    public void A_nested_child_keeps_its_namespace_when_the_parent_has_another()
    {
        var ds = new DataSet("S");
        var parent = new DataTable("Parent", "urn:parent");
        parent.Columns.Add("Id", typeof(int));
        var child = new DataTable("Child", "");
        child.Columns.Add("ParentId", typeof(int));
        ds.Tables.Add(parent);
        ds.Tables.Add(child);
        ds.Relations.Add("R", parent.Columns[0], child.Columns[0]).Nested = true;
        parent.Rows.Add(1);
        child.Rows.Add(1);

        var result = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds));

        Assert.Equal("", result.Tables["Child"]!.Namespace);
        DataSetAssert.Equivalent(ds, result);
    }
}
