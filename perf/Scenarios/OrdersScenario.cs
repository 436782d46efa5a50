using System.Data;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// Orders with related OrderLines: string-heavy order headers (address, card details) and small numeric lines,
/// joined by a primary key and a foreign-key relation.
/// </summary>
public static class OrdersScenario
{
    /// <summary>Order count of the catalog's "orders" scenario.</summary>
    public const int DefaultOrderCount = 1_000;

    private static readonly string[] ShipTypes = ["Ground", "Two-Day", "Overnight", "Freight", "Pickup"];
    private static readonly string[] CardTypes = ["Visa", "MasterCard", "American Express", "Discover"];
    private static readonly string[] Countries = ["USA", "USA", "USA", "USA", "Canada", "Mexico"];

    /// <summary>Builds the DataSet with <paramref name="orders"/> orders and 1-8 lines each.</summary>
    public static DataSet Create(int orders, int seed)
    {
        var dataSet = new DataSet("OrdersDataSet");
        var header = CreateOrdersTable(dataSet);
        var lines = CreateOrderLinesTable(dataSet);
        var random = new Random(seed);
        var headerValues = new object[header.Columns.Count];
        var lineValues = new object[lines.Columns.Count];
        int lineId = 0;

        header.BeginLoadData();
        lines.BeginLoadData();
        for (int orderId = 1; orderId <= orders; orderId++)
        {
            FillOrder(random, orderId, headerValues);
            header.LoadDataRow(headerValues, LoadOption.OverwriteChanges);
            int lineCount = random.Next(1, 9);
            for (int l = 0; l < lineCount; l++)
            {
                lineValues[0] = ++lineId;
                lineValues[1] = orderId;
                lineValues[2] = random.Next(10_000, 99_999);
                lineValues[3] = (short)(random.Next(100) < 70 ? 1 : random.Next(2, 25));
                lines.LoadDataRow(lineValues, LoadOption.OverwriteChanges);
            }
        }

        header.EndLoadData();
        lines.EndLoadData();
        dataSet.Relations.Add("Order_OrderLines", header.Columns["OrderID"]!, lines.Columns["OrderID"]!);
        return dataSet;
    }

    private static DataTable CreateOrdersTable(DataSet dataSet)
    {
        var table = dataSet.Tables.Add("Orders");
        var id = table.Columns.Add("OrderID", typeof(int));
        table.Columns.Add("CustomerID", typeof(string));
        table.Columns.Add("ShippingAddress1", typeof(string));
        table.Columns.Add("ShippingAddress2", typeof(string));
        table.Columns.Add("City", typeof(string));
        table.Columns.Add("State", typeof(string));
        table.Columns.Add("Zip", typeof(string));
        table.Columns.Add("Country", typeof(string));
        table.Columns.Add("ShipType", typeof(string));
        table.Columns.Add("CreditCardType", typeof(string));
        table.Columns.Add("CreditCardNumber", typeof(string));
        table.Columns.Add("CreditCardExpiration", typeof(DateTime)).DateTimeMode = DataSetDateTime.Unspecified;
        table.Columns.Add("CreditCardName", typeof(string));
        table.PrimaryKey = [id];
        return table;
    }

    private static DataTable CreateOrderLinesTable(DataSet dataSet)
    {
        var table = dataSet.Tables.Add("OrderLines");
        var id = table.Columns.Add("OrderLineID", typeof(int));
        table.Columns.Add("OrderID", typeof(int));
        table.Columns.Add("ItemID", typeof(int));
        table.Columns.Add("Quantity", typeof(short));
        table.PrimaryKey = [id];
        return table;
    }

    private static void FillOrder(Random random, int orderId, object[] values)
    {
        var (city, state, zipPrefix) = TextSource.Pick(random, TextSource.Cities);
        string first = TextSource.Pick(random, TextSource.FirstNames);
        string last = TextSource.Pick(random, TextSource.LastNames);
        values[0] = orderId;
        values[1] = $"C{random.Next(1, 5_000):D6}";
        values[2] = $"{random.Next(1, 9_999)} {TextSource.Pick(random, TextSource.Streets)}";
        values[3] = random.Next(100) < 30 ? $"Apt {random.Next(1, 400)}" : DBNull.Value;
        values[4] = city;
        values[5] = state;
        values[6] = zipPrefix + TextSource.Digits(random, 2);
        values[7] = TextSource.Pick(random, Countries);
        values[8] = TextSource.Pick(random, ShipTypes);
        values[9] = TextSource.Pick(random, CardTypes);
        values[10] = TextSource.Digits(random, 16);
        values[11] = new DateTime(2026 + random.Next(0, 6), random.Next(1, 13), 1);
        values[12] = $"{first} {last}";
    }
}
