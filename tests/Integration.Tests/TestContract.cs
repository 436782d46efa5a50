using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;

namespace Surrogate.Integration.Tests;

[DataContract(Namespace = "urn:surrogate:integration")]
public sealed class Order
{
    [DataMember] public int Id { get; set; }
    [DataMember] public string? Customer { get; set; }
    [DataMember] public List<decimal> Amounts { get; set; } = [];
    [DataMember] public DataTable? Lines { get; set; }
}

/// <summary>Serializing it fails after its first member is written: its second getter throws.</summary>
[DataContract(Namespace = "urn:surrogate:integration")]
public sealed class Unwritable
{
    [DataMember(Order = 1)] public string FirstMemberWithAFreshName { get; set; } = "written before the failure";

    [DataMember(Order = 2)]
    public string Second
    {
        get => throw new FaultException("second member refused");
        set { }
    }
}

[ServiceContract(Namespace = "urn:surrogate:integration")]
public interface ITestService
{
    [OperationContract] Task<int> AddAsync(int a, int b);
    [OperationContract] string Echo(string text);
    [OperationContract] Task<Order> ReviseAsync(Order order);
    [OperationContract] int Split(string text, out string head, ref int counter);
    [OperationContract] Task<DataSet> EchoDataSetAsync(DataSet dataSet);
    [OperationContract] Task<DataTable> EchoTableAsync(DataTable table);
    [OperationContract] Task<DataSet> CreateDataSetAsync(int rows);
    [OperationContract] Task FailAsync(string message);
    [OperationContract] Task RejectAsync(string message);
    [OperationContract] Task<Unwritable> UnwritableAsync();
    [OperationContract] Task<DataTable> UnnamedTableAsync();
    [OperationContract] Task<int> DelayAsync(int milliseconds);
    [OperationContract(IsOneWay = true)] void Notify(string text);
    [OperationContract] Task<string[]> NotifiedAsync();
}

public sealed class TestService : ITestService
{
    private readonly List<string> notified = [];

    public Task<int> AddAsync(int a, int b) => Task.FromResult(a + b);

    public string Echo(string text) => text;

    public Task<Order> ReviseAsync(Order order)
    {
        order.Id++;
        order.Customer = order.Customer?.ToUpperInvariant();
        order.Amounts.Add(order.Amounts.Sum());
        order.Lines?.Rows.Add("added", 99);
        return Task.FromResult(order);
    }

    public int Split(string text, out string head, ref int counter)
    {
        head = text[..Math.Min(3, text.Length)];
        counter += 10;
        return text.Length;
    }

    public Task<DataSet> EchoDataSetAsync(DataSet dataSet) => Task.FromResult(dataSet);

    public Task<DataTable> EchoTableAsync(DataTable table) => Task.FromResult(table);

    public Task<DataSet> CreateDataSetAsync(int rows) => Task.FromResult(TestData.CreateDataSet(rows));

    public Task FailAsync(string message) => throw new InvalidOperationException(message);

    public Task RejectAsync(string message) => throw new FaultException(message);

    public Task<Unwritable> UnwritableAsync() => Task.FromResult(new Unwritable());

    // DataTable XML needs a table name: writing this reply fails inside the serializer.
    public Task<DataTable> UnnamedTableAsync() => Task.FromResult(new DataTable());

    public async Task<int> DelayAsync(int milliseconds)
    {
        await Task.Delay(milliseconds);
        return milliseconds;
    }

    public void Notify(string text)
    {
        lock (notified)
        {
            notified.Add(text);
        }
    }

    public Task<string[]> NotifiedAsync()
    {
        lock (notified)
        {
            return Task.FromResult(notified.ToArray());
        }
    }
}

public static class TestData
{
    public static DataSet CreateDataSet(int rows)
    {
        var set = new DataSet("Shop");
        DataTable table = set.Tables.Add("Items");
        table.Columns.Add("Name", typeof(string));
        table.Columns.Add("Quantity", typeof(int));
        for (int i = 0; i < rows; i++)
        {
            table.Rows.Add($"item {i}", i);
        }

        table.AcceptChanges();
        if (rows > 1)
        {
            table.Rows[0]["Quantity"] = -1; // Modified, with an original value
            table.Rows[1].RowError = "checked";
        }

        return set;
    }

    public static DataTable CreateLines()
    {
        var table = new DataTable("Lines");
        table.Columns.Add("Product", typeof(string));
        table.Columns.Add("Count", typeof(int));
        table.Rows.Add("pen", 2);
        return table;
    }

    public static void AssertSameRows(DataTable expected, DataTable actual)
    {
        Xunit.Assert.Equal(expected.TableName, actual.TableName);
        Xunit.Assert.Equal(expected.Rows.Count, actual.Rows.Count);
        for (int r = 0; r < expected.Rows.Count; r++)
        {
            Xunit.Assert.Equal(expected.Rows[r].RowState, actual.Rows[r].RowState);
            Xunit.Assert.Equal(expected.Rows[r].RowError, actual.Rows[r].RowError);
            Xunit.Assert.Equal(expected.Rows[r].ItemArray, actual.Rows[r].ItemArray);
            if (expected.Rows[r].HasVersion(DataRowVersion.Original))
            {
                Xunit.Assert.Equal(expected.Rows[r]["Quantity", DataRowVersion.Original], actual.Rows[r]["Quantity", DataRowVersion.Original]);
            }
        }
    }
}
