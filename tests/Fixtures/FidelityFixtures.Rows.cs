using System.Data;
using System.Globalization;

namespace Surrogate.Tests.Fixtures;

public static partial class FidelityFixtures
{
    private static DataSet RowStates()
    {
        var ds = new DataSet("States");
        var parent = ds.Tables.Add("Parent");
        parent.Columns.Add("Id", typeof(int));
        parent.Columns.Add("Name", typeof(string));
        parent.Columns.Add("Score", typeof(double));
        parent.PrimaryKey = [parent.Columns["Id"]!];
        var child = ds.Tables.Add("Child");
        child.Columns.Add("ParentId", typeof(int));
        child.Columns.Add("Tag", typeof(string));
        ds.Relations.Add("ParentChild", parent.Columns["Id"]!, child.Columns["ParentId"]!).Nested = true;
        for (var i = 0; i < 12; i++)
        {
            parent.Rows.Add(i, "name " + i, i * 1.5);
            child.Rows.Add(i, "tag " + i);
        }

        ds.AcceptChanges();
        parent.Rows[1]["Name"] = "modified";                 // Modified: one column changed
        parent.Rows[2].Delete();                              // Deleted (its child cascades to Deleted)
        parent.Rows[3]["Score"] = DBNull.Value;               // Modified to null
        parent.Rows.Add(100, "added", 0.25);                  // Added
        parent.Rows[5]["Name"] = "changed";
        parent.Rows[5].AcceptChanges();                       // Back to Unchanged with new values
        parent.Rows[6]["Name"] = "twice";
        parent.Rows[6]["Name"] = "twice again";
        child.Rows[7].Delete();                               // A deleted child under a live parent
        child.Rows.Add(100, "added child");
        parent.Rows[8].RowError = "deleted with error";
        parent.Rows[8].Delete();
        return ds;
    }

    private static DataSet RowErrors()
    {
        var ds = new DataSet("Errors");
        var t = ds.Tables.Add("Checked");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("A", typeof(string));
        t.Columns.Add("B", typeof(string));
        for (var i = 0; i < 6; i++)
        {
            t.Rows.Add(i, "a" + i, "b" + i);
        }

        t.AcceptChanges();
        t.Rows[0].RowError = "row error only";
        t.Rows[1].SetColumnError("A", "column error only");
        t.Rows[2].RowError = "both";
        t.Rows[2].SetColumnError("B", new string('e', 10_000));
        t.Rows[3]["A"] = "changed";
        t.Rows[3].SetColumnError("A", "on a modified row");
        t.Rows.Add(9, "new", "row").RowError = "on an added row";
        t.Rows[4].SetColumnError(1, "deleted row column error");
        t.Rows[4].Delete();
        return ds;
    }

    private static DataSet ViolatingData()
    {
        var ds = new DataSet("Violations") { EnforceConstraints = false };
        var parent = ds.Tables.Add("Parent");
        var id = parent.Columns.Add("Id", typeof(int));
        var name = parent.Columns.Add("Name", typeof(string));
        parent.PrimaryKey = [id];
        name.AllowDBNull = false;
        name.MaxLength = 3;
        var child = ds.Tables.Add("Child");
        child.Columns.Add("ParentId", typeof(int));
        ds.Relations.Add("FK", id, child.Columns["ParentId"]!);
        parent.Rows.Add(1, "one");
        parent.Rows.Add(1, "dup");       // duplicate key
        parent.Rows.Add(2, DBNull.Value); // null in a non-null column
        child.Rows.Add(99);              // orphan
        ds.AcceptChanges();
        return ds;
    }

    /// <summary>An Orders/OrderLines DataSet with deterministic, realistic values.</summary>
    public static DataSet Orders(int orders)
    {
        var random = new Random(20111125);
        var ds = new DataSet("OrdersData");
        var o = ds.Tables.Add("Orders");
        o.Columns.Add("OrderId", typeof(int));
        o.Columns.Add("CustomerID", typeof(string));
        o.Columns.Add("City", typeof(string));
        o.Columns.Add("State", typeof(string));
        o.Columns.Add("Placed", typeof(DateTime)).DateTimeMode = DataSetDateTime.Utc;
        o.Columns.Add("Total", typeof(decimal));
        o.PrimaryKey = [o.Columns["OrderId"]!];
        var l = ds.Tables.Add("OrderLines");
        l.Columns.Add("OrderId", typeof(int));
        l.Columns.Add("ItemID", typeof(int));
        l.Columns.Add("Quantity", typeof(short));
        ds.Relations.Add("OrderLines", o.Columns["OrderId"]!, l.Columns["OrderId"]!);
        string[] cities = ["Springfield", "Riverside", "Franklin", "Greenville", "Bristol", "Clinton"];
        string[] states = ["CA", "TX", "NY", "WA", "OR", "IL"];
        var start = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        for (var i = 0; i < orders; i++)
        {
            var placed = start.AddSeconds(i * 97 + random.Next(60));
            o.Rows.Add(i + 1, "C" + random.Next(100_000).ToString("D6", CultureInfo.InvariantCulture), cities[random.Next(cities.Length)],
                states[random.Next(states.Length)], placed, Math.Round((decimal)random.NextDouble() * 1000m, 2));
            for (var j = random.Next(1, 4); j > 0; j--)
            {
                l.Rows.Add(i + 1, random.Next(1, 5_000), (short)random.Next(1, 20));
            }
        }

        ds.AcceptChanges();
        return ds;
    }

    /// <summary>A wide numeric table: <paramref name="rows"/> × 20 mixed numeric columns with some nulls.</summary>
    public static DataSet WideNumeric(int rows)
    {
        var random = new Random(42);
        var ds = new DataSet("Wide");
        var t = ds.Tables.Add("Numbers");
        Type[] types = [typeof(int), typeof(long), typeof(double), typeof(decimal), typeof(float)];
        for (var c = 0; c < 20; c++)
        {
            t.Columns.Add("C" + c, types[c % types.Length]);
        }

        var values = new object[20];
        t.BeginLoadData();
        for (var r = 0; r < rows; r++)
        {
            for (var c = 0; c < 20; c++)
            {
                values[c] = random.Next(10) == 0 ? DBNull.Value : (c % types.Length) switch
                {
                    0 => r + c,
                    1 => (long)random.Next() << 8,
                    2 => random.NextDouble() * 1e6,
                    3 => Math.Round((decimal)random.NextDouble() * 10_000m, 4),
                    _ => (object)(float)random.NextDouble(),
                };
            }

            t.Rows.Add(values);
        }

        t.EndLoadData();
        t.AcceptChanges();
        return ds;
    }
}
