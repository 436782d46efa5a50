using System.Data;
using System.ServiceModel;
using Surrogate.Perf.Scenarios;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The service of the compression suite: the 2011 Orders call, bytes, and DataSets plain and as the payload.</summary>
[ServiceContract(Name = "Orders", Namespace = "urn:surrogate:compression")]
public interface IOrderService
{
    /// <summary>The first <paramref name="count"/> of the service's orders (served from memory).</summary>
    [OperationContract]
    Task<Order[]> GetOrdersAsync(int count);

    [OperationContract]
    Task<byte[]> EchoBytesAsync(byte[] data);

    [OperationContract]
    Task<DataSet> EchoDataSetAsync(DataSet value);

    [OperationContract]
    [DataSetSurrogate]
    Task<DataSet> EchoSurrogateAsync(DataSet value);
}

public sealed class OrderService : IOrderService
{
    private int _calls;

    /// <summary>How many operations ran.</summary>
    public int Calls => Volatile.Read(ref _calls);

    public Task<Order[]> GetOrdersAsync(int count) => Ran(MetzgerOrders.Take(count));

    public Task<byte[]> EchoBytesAsync(byte[] data) => Ran(data);

    public Task<DataSet> EchoDataSetAsync(DataSet value) => Ran(value);

    public Task<DataSet> EchoSurrogateAsync(DataSet value) => Ran(value);

    private Task<T> Ran<T>(T value)
    {
        Interlocked.Increment(ref _calls);
        return Task.FromResult(value);
    }
}
