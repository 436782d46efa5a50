using System.Data;
using System.Runtime.Serialization;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// Small hand-made values for the tests of this project. The transport suite's fidelity cases come from the shared
/// fixtures (tests/Fixtures); these serve the serializer-level tests and the suite's other calls.
/// </summary>
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
