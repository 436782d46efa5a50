using System.Data;
using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.Tests.Fixtures;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The contract with the attribute: a client or service of the new version.</summary>
[ServiceContract(Name = Shop.Name, Namespace = Shop.Namespace)]
[DataSetSurrogate]
public interface IShop
{
    [OperationContract]
    Task<DataSet> EchoAsync(DataSet value);

    [OperationContract]
    Task<ShopDataSet> EchoTypedAsync(ShopDataSet value);

    [OperationContract]
    Task<OrdersTypedDataSet> EchoOrdersTypedAsync(OrdersTypedDataSet value);

    [OperationContract]
    Task<Envelope> EchoEnvelopeAsync(Envelope value);

    [OperationContract]
    Task<List<DataTable>> EchoTablesAsync(List<DataTable> value);

    /// <summary>Out and ref parameters: returns <paramref name="input"/>, echoes <paramref name="table"/> back, copies input.</summary>
    [OperationContract]
    DataSet Swap(DataSet input, ref DataTable table, out DataSet copy);

    [OperationContract]
    Task<int> CountRowsAsync(DataSet value);
}

/// <summary>The same contract without the attribute (identical names and namespace): the old version.</summary>
[ServiceContract(Name = Shop.Name, Namespace = Shop.Namespace)]
public interface IShopOld
{
    [OperationContract]
    Task<DataSet> EchoAsync(DataSet value);

    [OperationContract]
    Task<ShopDataSet> EchoTypedAsync(ShopDataSet value);

    [OperationContract]
    Task<OrdersTypedDataSet> EchoOrdersTypedAsync(OrdersTypedDataSet value);

    [OperationContract]
    Task<Envelope> EchoEnvelopeAsync(Envelope value);

    [OperationContract]
    Task<List<DataTable>> EchoTablesAsync(List<DataTable> value);

    [OperationContract]
    DataSet Swap(DataSet input, ref DataTable table, out DataSet copy);

    [OperationContract]
    Task<int> CountRowsAsync(DataSet value);
}

/// <summary>Sends hand-made messages, to put a payload on the wire that no codec would write.</summary>
[ServiceContract(Name = Shop.Name, Namespace = Shop.Namespace)]
public interface IShopRaw
{
    [OperationContract(Action = "*", ReplyAction = "*")]
    Task<Message> SendAsync(Message request);
}

public static class Shop
{
    public const string Name = "Shop";
    public const string Namespace = "urn:surrogate:tests";

    public static string Action(string operation) => $"{Namespace}/{Name}/{operation}";
}

/// <summary>One implementation behind both contract versions.</summary>
public sealed class ShopService : IShop, IShopOld
{
    public Task<DataSet> EchoAsync(DataSet value) => Task.FromResult(value);

    public Task<ShopDataSet> EchoTypedAsync(ShopDataSet value) => Task.FromResult(value);

    public Task<OrdersTypedDataSet> EchoOrdersTypedAsync(OrdersTypedDataSet value) => Task.FromResult(value);

    public Task<Envelope> EchoEnvelopeAsync(Envelope value) => Task.FromResult(value);

    public Task<List<DataTable>> EchoTablesAsync(List<DataTable> value) => Task.FromResult(value);

    public DataSet Swap(DataSet input, ref DataTable table, out DataSet copy)
    {
        copy = input.Copy();
        return input;
    }

    public Task<int> CountRowsAsync(DataSet value) =>
        Task.FromResult(value.Tables.Cast<DataTable>().Sum(t => t.Rows.Count));
}
