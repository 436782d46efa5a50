using System.Data;
using Surrogate.AsmxCompare;
using Surrogate.Perf.Scenarios;
using Xunit;

namespace Surrogate.Integration.Tests;

/// <summary>The ASMX-style baseline over real HTTP on 127.0.0.1: the same scenarios the WCF cases carry.</summary>
public sealed class AsmxBaselineTests : IAsyncLifetime
{
    private AsmxHost host = null!;

    public async Task InitializeAsync() => host = await AsmxHost.StartAsync();

    public async Task DisposeAsync() => await host.DisposeAsync();

    [Theory]
    [InlineData("small")]
    [InlineData("rows-10000")]
    [InlineData("orders")]
    public void A_scenario_arrives_whole(string scenario)
    {
        using var client = new AsmxClient(host.Address);
        var expected = ScenarioCatalog.Create(scenario);
        var actual = client.GetDataSet(scenario);
        Assert.Equal(expected.Tables.Count, actual.Tables.Count);
        for (var t = 0; t < expected.Tables.Count; t++)
        {
            var e = expected.Tables[t];
            var a = actual.Tables[e.TableName]!;
            Assert.Equal(e.Columns.Count, a.Columns.Count);
            Assert.Equal(e.Rows.Count, a.Rows.Count);
            foreach (var r in new[] { 0, e.Rows.Count / 2, e.Rows.Count - 1 })
            {
                Assert.Equal(e.Rows[r].ItemArray, a.Rows[r].ItemArray);
            }
        }

        Assert.True(client.LastBytes.Response > client.LastBytes.Request);
    }

    [Fact]
    public void An_echoed_dataset_keeps_row_states_and_original_values()
    {
        var ds = new DataSet("Echo");
        var t = ds.Tables.Add("T");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("Name", typeof(string));
        for (var i = 0; i < 4; i++)
        {
            t.Rows.Add(i, "n" + i);
        }

        ds.AcceptChanges();
        t.Rows[1]["Name"] = "changed";
        t.Rows[2].Delete();
        t.Rows.Add(9, "added");

        using var client = new AsmxClient(host.Address);
        var echoed = client.EchoDataSet(ds).Tables["T"]!;
        Assert.Equal(
            t.Rows.Cast<DataRow>().Select(r => r.RowState),
            echoed.Rows.Cast<DataRow>().Select(r => r.RowState));
        Assert.Equal("n1", echoed.Rows[1]["Name", DataRowVersion.Original]);
        Assert.Equal("changed", echoed.Rows[1]["Name"]);
        Assert.Equal("n2", echoed.Rows[2]["Name", DataRowVersion.Original]);
    }

    [Fact]
    public void Objects_arrive_through_XmlSerializer()
    {
        using var client = new AsmxClient(host.Address);
        var objects = client.GetObjects(1_000);
        Assert.Equal(ScenarioCatalog.Objects(1_000).Select(o => (o.Id, o.Name)), objects.Select(o => (o.Id, o.Name)));
    }

    [Fact]
    public void An_unknown_scenario_comes_back_as_a_soap_fault()
    {
        using var client = new AsmxClient(host.Address);
        var fault = Assert.Throws<AsmxFaultException>(() => client.GetDataSet("no-such-scenario"));
        Assert.Contains("no-such-scenario", fault.Message, StringComparison.Ordinal);
    }
}
