using System.Collections.Concurrent;
using System.Data;
using System.ServiceModel;
using Surrogate.Perf.Scenarios;
using Surrogate.ServiceModel;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The compression benchmarks' operations: the 2011 Orders call (n <see cref="Order"/> objects), the Orders
/// DataSet of perf/Scenarios with n orders, carried as DataSet XML (WCF's default serializer), and the grid's
/// messages of a given compressibility and size (<see cref="GridMessages"/>).
/// </summary>
[ServiceContract(Namespace = BenchContract.Namespace, Name = BenchContract.Name)]
public interface IOrdersBench
{
    /// <summary>The first <paramref name="count"/> of the 1,000 orders generated once (served from memory).</summary>
    [OperationContract]
    Order[] GetOrders(int count);

    /// <summary>The Orders DataSet (Orders + OrderLines) with <paramref name="count"/> orders, built once per count.</summary>
    [OperationContract]
    DataSet GetOrdersDataSet(int count);

    /// <summary>The grid message of <paramref name="kind"/> (simple, medium, complex) with <paramref name="size"/> bytes, built once per kind and size.</summary>
    [OperationContract]
    byte[] GetGridMessage(string kind, int size);
}

/// <summary>The DataSet operation with <c>[DataSetSurrogate]</c>: the same DataSet as the columnar payload.</summary>
[DataSetSurrogate]
[ServiceContract(Namespace = BenchContract.Namespace, Name = BenchContract.SurrogateName)]
public interface ISurrogateOrdersBench
{
    /// <inheritdoc cref="IOrdersBench.GetOrdersDataSet" />
    [OperationContract]
    DataSet GetOrdersDataSet(int count);
}

/// <summary>Names of the benchmark contracts and of the endpoints a server announces.</summary>
public static class BenchContract
{
    public const string Namespace = "urn:surrogate:compression-bench";
    public const string Name = "OrdersBench";
    public const string SurrogateName = "SurrogateOrdersBench";

    /// <summary>Both sides' message size limit and quotas: 64 MB, far above any reply here.</summary>
    public const int MaxMessage = 64 << 20;

    /// <summary>Both sides' timeouts: long enough for an 875 KB reply on a 1.5 Mbit/s link shared by several clients.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(5);

    /// <summary>The endpoint path (and announced key) of a contender's contract: <c>/zstd-1/plain</c>, <c>/zstd-1/surrogate</c>.</summary>
    public static string Path(string contender, string contract) => $"/{contender}/{contract}";

    /// <summary>The announced key of that endpoint.</summary>
    public static string Key(string contender, string contract) => $"{contender}/{contract}";
}

/// <summary>
/// What the services return: the shared orders (never copied, as in 2011, so object creation is not measured), one
/// DataSet per count and one grid message per kind and size, built before the first call; every call of every client
/// gets the same instances.
/// </summary>
public static class BenchPayloads
{
    private static readonly ConcurrentDictionary<int, DataSet> DataSets = new();

    public static Order[] Orders(int count) => MetzgerOrders.Take(count);

    public static DataSet OrdersDataSet(int count) => DataSets.GetOrAdd(count, static n => OrdersScenario.Create(n, ScenarioCatalog.DefaultSeed));

    /// <summary>Builds a message class's payload of one size now (<c>class:size</c>), so the first measured call finds it.</summary>
    public static void Preload(string classAndSize)
    {
        string[] parts = classAndSize.Split(':');
        int size = int.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture);
        if (GridMessages.Kinds.Any(k => k.Name == parts[0]))
        {
            GridMessages.Preload(parts[0], size);
        }
        else
        {
            Orders(size);
            OrdersDataSet(size);
        }
    }
}

/// <summary>The service behind both contracts on both servers (thread-safe: it only reads shared payloads).</summary>
public sealed class OrdersBenchService : IOrdersBench, ISurrogateOrdersBench
{
    public Order[] GetOrders(int count) => BenchPayloads.Orders(count);

    public DataSet GetOrdersDataSet(int count) => BenchPayloads.OrdersDataSet(count);

    public byte[] GetGridMessage(string kind, int size) => GridMessages.Payload(kind, size);
}
