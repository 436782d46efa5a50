using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// A message class of the compression benchmarks: a contract operation (on the <paramref name="Contract"/> endpoint,
/// <c>plain</c> or <c>surrogate</c>), the sizes it runs at, and how a client calls it; the payload comes from
/// <see cref="BenchPayloads"/> on the server. <paramref name="Connect"/> opens a client that makes one call of size n and
/// returns the items received (checked against n). A grid class (<paramref name="Kind"/> set) counts its sizes in
/// bytes and has the mix (<see cref="GridMessages.Mix"/>); the others count orders.
/// </summary>
public sealed record MessageClass(string Name, string Label, string Contract, IReadOnlyList<int> Sizes, Func<Binding, Uri, IBenchClient> Connect, GridKind? Kind = null)
{
    /// <summary>A size for reports: orders as a number, grid sizes as "150 KB" or "mix".</summary>
    public string SizeLabel(int size) => Kind is null ? size.ToString(System.Globalization.CultureInfo.InvariantCulture) : GridMessages.Label(size);

    /// <summary>Parses one <c>--sizes</c> item for this class; throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public int ParseSize(string text)
    {
        if (Kind is not null && text == "mix")
        {
            return GridMessages.Mix;
        }

        bool number = int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int n);
        return Kind is null
            ? number && n is >= 1 and <= Scenarios.MetzgerOrders.Count ? n : throw new ArgumentException($"Size '{text}' is not a number of orders from 1 to {Scenarios.MetzgerOrders.Count} ({Name}).")
            : number && n is >= 1 and <= GridMessages.MaxBytes ? n : throw new ArgumentException($"Size '{text}' is not a number of bytes from 1 to {GridMessages.MaxBytes}, or mix ({Name}).");
    }
}

/// <summary>A connected client of one message class; <see cref="Call"/> makes one call and returns the items received.</summary>
public interface IBenchClient : IDisposable
{
    int Call(int size);
}

/// <summary>The message classes, in report order.</summary>
public static class MessageClassCatalog
{
    public const string Orders = "orders";

    public static IReadOnlyList<MessageClass> All { get; } =
    [
        new(Orders, "2011 Orders (Order[] data contracts)", "plain", [10, 100, 1000],
            (binding, uri) => new BenchClient<IOrdersBench>(binding, uri, (c, n) => c.GetOrders(n).Length)),
        new("dataset-plain", "Orders DataSet, plain (DataSet XML)", "plain", [1000],
            (binding, uri) => new BenchClient<IOrdersBench>(binding, uri, (c, n) => c.GetOrdersDataSet(n).Tables["Orders"]!.Rows.Count)),
        new("dataset-surrogate", "Orders DataSet, [DataSetSurrogate]", "surrogate", [1000],
            (binding, uri) => new BenchClient<ISurrogateOrdersBench>(binding, uri, (c, n) => c.GetOrdersDataSet(n).Tables["Orders"]!.Rows.Count)),
        .. GridMessages.Kinds.Select(Grid),
    ];

    /// <summary>The grid classes' names: simple, medium, complex.</summary>
    public static IReadOnlyList<string> GridNames { get; } = [.. GridMessages.Kinds.Select(k => k.Name)];

    /// <summary>The short version's classes and sizes (CI): 10 and 1,000 orders, and the surrogate DataSet.</summary>
    public static IReadOnlyList<(string Class, IReadOnlyList<int> Sizes)> Quick { get; } =
        [(Orders, [10, 1000]), ("dataset-surrogate", [1000])];

    /// <summary>A grid class: a byte[] of the kind's content, the mix cycling through <see cref="GridMessages.MixSequence"/>.</summary>
    private static MessageClass Grid(GridKind kind) => new(
        kind.Name,
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{kind.Name} messages (bytes, ratio ~{kind.ClaimedRatio})"),
        "plain",
        GridMessages.Sizes,
        (binding, uri) => new MixClient(new BenchClient<IOrdersBench>(binding, uri, (c, n) => c.GetGridMessage(kind.Name, n).Length)),
        kind);

    public static MessageClass Get(string name) =>
        All.FirstOrDefault(c => c.Name == name) ?? throw new ArgumentException($"Unknown message class '{name}'; known: {string.Join(", ", All.Select(c => c.Name))}.");
}

/// <summary>One opened factory and channel per cell and client process, reused for every call, as a long-lived client would.</summary>
public sealed class BenchClient<TContract> : IBenchClient
{
    private readonly ChannelFactory<TContract> factory;
    private readonly TContract channel;
    private readonly Func<TContract, int, int> call;

    public BenchClient(Binding binding, Uri address, Func<TContract, int, int> call)
    {
        factory = new ChannelFactory<TContract>(binding, new EndpointAddress(address));
        factory.Open();
        channel = factory.CreateChannel();
        ((IClientChannel)channel!).Open();
        this.call = call;
    }

    public int Call(int size)
    {
        int received = call(channel, size);
        return received == size ? received : throw new InvalidOperationException($"Asked for {size} items, received {received}.");
    }

    public void Dispose()
    {
        var client = (IClientChannel)channel!;
        try
        {
            client.Close();
            factory.Close();
        }
        catch (Exception e) when (e is CommunicationException or TimeoutException)
        {
            client.Abort();
            factory.Abort();
        }
    }
}

/// <summary>A grid client: size <see cref="GridMessages.Mix"/> asks for the next size of the mix's fixed sequence, any other size as it is.</summary>
public sealed class MixClient(IBenchClient inner) : IBenchClient
{
    private int next;

    public int Call(int size)
    {
        if (size != GridMessages.Mix)
        {
            return inner.Call(size);
        }

        int bytes = GridMessages.MixSequence[next];
        next = (next + 1) % GridMessages.MixSequence.Count;
        return inner.Call(bytes);
    }

    public void Dispose() => inner.Dispose();
}
