using System.Data;
using System.Runtime.Serialization;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>Small hand-made values for the serializer-level tests (the transport suite uses the shared fixtures).</summary>
internal static class SampleData
{
    /// <summary>Two related tables with every row state, original values and errors.</summary>
    public static DataSet Orders(int rows = 20, int textLength = 12)
    {
        var ds = new DataSet("Shop");
        DataTable orders = ds.Tables.Add("Orders");
        orders.Columns.Add("Id", typeof(int));
        orders.Columns.Add("Customer", typeof(string));
        orders.Columns.Add("Total", typeof(decimal));
        orders.PrimaryKey = [orders.Columns[0]];
        DataTable lines = ds.Tables.Add("Lines");
        lines.Columns.Add("OrderId", typeof(int));
        lines.Columns.Add("Sku", typeof(string));
        ds.Relations.Add("OrderLines", orders.Columns[0], lines.Columns[0]);
        var random = new Random(7);
        for (int i = 0; i < rows; i++)
        {
            orders.Rows.Add(i, Text(random, textLength), i * 1.25m);
            lines.Rows.Add(i, Text(random, textLength));
        }

        ds.AcceptChanges();
        if (rows > 3)
        {
            orders.Rows[0]["Customer"] = "changed";
            orders.Rows[1].Delete();
            orders.Rows[2].RowError = "row error";
            orders.Rows[2].SetColumnError("Total", "column error");
            orders.Rows.Add(rows, "added", 0m);
        }

        return ds;
    }

    /// <summary>Fidelity cases for the transport suite, by name (xunit member data).</summary>
    public static TheoryData<string> FidelityCases => new() { "row-states", "column-types", "schema-rules", "empty" };

    public static DataSet Fidelity(string name) => name switch
    {
        "row-states" => Orders(),
        "column-types" => ColumnTypes(),
        "schema-rules" => SchemaRules(),
        "empty" => Empty(),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "unknown fidelity case"),
    };

    /// <summary>Every common column type, with nulls, and a modified row keeping original values.</summary>
    public static DataSet ColumnTypes()
    {
        var ds = new DataSet("Types");
        DataTable t = ds.Tables.Add("Values");
        Type[] types = [typeof(bool), typeof(byte), typeof(short), typeof(int), typeof(long), typeof(float), typeof(double),
            typeof(decimal), typeof(DateTime), typeof(TimeSpan), typeof(Guid), typeof(string), typeof(byte[]), typeof(char)];
        foreach (Type type in types)
        {
            t.Columns.Add(type.Name, type);
        }

        t.Rows.Add(true, (byte)1, (short)-2, 3, 4L, 5.5f, 6.25, 7.125m, new DateTime(2024, 2, 29, 13, 14, 15, DateTimeKind.Utc),
            TimeSpan.FromMinutes(90), new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"), "text", new byte[] { 1, 2, 3 }, 'x');
        t.Rows.Add(t.Columns.Cast<DataColumn>().Select(_ => (object)DBNull.Value).ToArray());
        ds.AcceptChanges();
        t.Rows[0]["String"] = "changed";
        t.Rows[1]["Int32"] = 42;
        return ds;
    }

    /// <summary>Constraints, relation rules, column rules and extended properties.</summary>
    public static DataSet SchemaRules()
    {
        var ds = new DataSet("Rules") { Namespace = "urn:rules" };
        ds.ExtendedProperties["owner"] = "sales";
        DataTable parent = ds.Tables.Add("Parent");
        DataColumn id = parent.Columns.Add("Id", typeof(int));
        id.AutoIncrement = true;
        id.AutoIncrementSeed = 100;
        id.AutoIncrementStep = 5;
        parent.PrimaryKey = [id];
        DataColumn code = parent.Columns.Add("Code", typeof(string));
        code.MaxLength = 8;
        code.AllowDBNull = false;
        code.Caption = "Short code";
        code.ExtendedProperties["format"] = "upper";
        parent.Constraints.Add(new UniqueConstraint("UniqueCode", code));
        parent.Columns.Add("Note", typeof(string)).DefaultValue = "none";
        DataTable child = ds.Tables.Add("Child");
        child.Columns.Add("ParentId", typeof(int));
        child.Columns.Add("Amount", typeof(decimal));
        var relation = ds.Relations.Add("ParentChild", id, child.Columns[0], createConstraints: true);
        relation.ChildKeyConstraint!.DeleteRule = Rule.SetNull;
        relation.Nested = true;
        parent.Rows.Add(null, "A1");
        parent.Rows.Add(null, "B2", "vip");
        child.Rows.Add(100, 1.5m);
        child.Rows.Add(105, 2.5m);
        return ds;
    }

    public static DataSet Empty()
    {
        var ds = new DataSet("Nothing");
        ds.Tables.Add("NoRows").Columns.Add("A", typeof(int));
        return ds;
    }

    public static string Text(Random random, int length)
    {
        const string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        return string.Create(length, random, (span, r) =>
        {
            for (int i = 0; i < span.Length; i++)
            {
                span[i] = alphabet[r.Next(alphabet.Length)];
            }
        });
    }

    /// <summary>Schema plus diffgram: row states, original and current values, row and column errors.</summary>
    public static string Describe(DataSet ds)
    {
        using var writer = new StringWriter();
        ds.WriteXmlSchema(writer);
        ds.WriteXml(writer, XmlWriteMode.DiffGram);
        return writer.ToString();
    }

    /// <summary>
    /// Columns plus diffgram. A lone table's schema text is left out: it also prints whether the locale was set
    /// explicitly, which the codec does not carry for a table outside a DataSet (the values are equal).
    /// </summary>
    public static string Describe(DataTable table)
    {
        using var writer = new StringWriter();
        writer.WriteLine(table.TableName + ":" + string.Join(",", table.Columns.Cast<DataColumn>().Select(c => c.ColumnName + " " + c.DataType)));
        table.WriteXml(writer, XmlWriteMode.DiffGram);
        return writer.ToString();
    }
}

/// <summary>A typed DataSet in the shape designer output has (typed table, parameterless constructor).</summary>
public sealed class ShopDataSet : DataSet
{
    public ShopDataSet()
    {
        DataSetName = "ShopDataSet";
        var table = new DataTable("Items");
        table.Columns.Add("Name", typeof(string));
        table.Columns.Add("Price", typeof(double));
        Tables.Add(table);
    }

    public DataTable Items => Tables["Items"]!;
}

[DataContract(Namespace = "urn:test")]
public sealed class Envelope
{
    [DataMember]
    public string? Title { get; set; }

    [DataMember]
    public DataTable? Table { get; set; }

    [DataMember]
    public List<DataTable>? Tables { get; set; }

    [DataMember]
    public DataSet[]? Sets { get; set; }
}
