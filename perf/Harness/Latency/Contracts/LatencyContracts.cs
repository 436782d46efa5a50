using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;
using Surrogate.ServiceModel;

namespace Surrogate.Perf.Harness.Latency.Contracts;

/// <summary>
/// The latency service's data-contract operations. Two-way operations return what the service measured of the
/// payload (<see cref="Payloads.Measure(byte[])"/>), so every reply is checked; one-way operations carry the caller's
/// signal id, which the service answers on the side channel once it has the payload.
/// </summary>
[ServiceContract(Namespace = LatencyNames.Namespace, Name = "LatencyService")]
public interface ILatencyService
{
    /// <summary>An empty call: the cost of a call without payload.</summary>
    [OperationContract]
    int Ping();

    [OperationContract]
    int SendBytes(byte[] data);

    [OperationContract(IsOneWay = true)]
    void PostBytes(int signal, byte[] data);

    [OperationContract]
    int SendText(string text);

    [OperationContract(IsOneWay = true)]
    void PostText(int signal, string text);

    [OperationContract]
    int SendItem(Item item);

    [OperationContract(IsOneWay = true)]
    void PostItem(int signal, Item item);

    [OperationContract]
    int SendRefItem(RefItem item);

    [OperationContract(IsOneWay = true)]
    void PostRefItem(int signal, RefItem item);

#pragma warning disable CA2356 // DataSet parameters: the matrix measures them as users have them, between its own processes.
    [OperationContract]
    int SendDataSet(DataSet data);

    [OperationContract(IsOneWay = true)]
    void PostDataSet(int signal, DataSet data);
#pragma warning restore CA2356

    /// <summary>The soak's call: a DataSet of <paramref name="size"/> nominal bytes, built once per size.</summary>
    [OperationContract]
    DataSet GetDataSet(int size);
}

/// <summary>The DataSet operations with <c>[DataSetSurrogate]</c>: plain DataSet vs the columnar payload.</summary>
[DataSetSurrogate]
[ServiceContract(Namespace = LatencyNames.Namespace, Name = "SurrogateLatencyService")]
public interface ISurrogateLatencyService
{
#pragma warning disable CA2356 // as above
    [OperationContract]
    int SendDataSet(DataSet data);

    [OperationContract(IsOneWay = true)]
    void PostDataSet(int signal, DataSet data);
#pragma warning restore CA2356

    [OperationContract]
    DataSet GetDataSet(int size);
}

/// <summary>The same payloads written by XmlSerializer.</summary>
[XmlSerializerFormat]
[ServiceContract(Namespace = LatencyNames.Namespace, Name = "XmlLatencyService")]
public interface IXmlLatencyService
{
    [OperationContract]
    int SendBytes(byte[] data);

    [OperationContract(IsOneWay = true)]
    void PostBytes(int signal, byte[] data);

    [OperationContract]
    int SendText(string text);

    [OperationContract(IsOneWay = true)]
    void PostText(int signal, string text);

    [OperationContract]
    int SendItem(Item item);

    [OperationContract(IsOneWay = true)]
    void PostItem(int signal, Item item);

#pragma warning disable CA2356 // as above
    [OperationContract]
    int SendDataSet(DataSet data);

    [OperationContract(IsOneWay = true)]
    void PostDataSet(int signal, DataSet data);
#pragma warning restore CA2356
}

/// <summary>A Stream as the message body; the one-way call's first four bytes are the signal id (a body has no other parameter).</summary>
[ServiceContract(Namespace = LatencyNames.Namespace, Name = "StreamLatencyService")]
public interface IStreamLatencyService
{
    [OperationContract]
    int SendStream(Stream data);

    [OperationContract(IsOneWay = true)]
    void PostStream(Stream data);
}

/// <summary>A container: text or binary members, and children (a 1×3×3 hierarchy for the nested types).</summary>
[DataContract(Namespace = LatencyNames.Namespace)]
public sealed class Item
{
    [DataMember(Order = 0)]
    public string Name { get; set; } = string.Empty;

    [DataMember(Order = 1)]
    public string? Text { get; set; }

#pragma warning disable CA1819 // a data contract's binary member
    [DataMember(Order = 2)]
    public byte[]? Data { get; set; }

    [DataMember(Order = 3)]
    public Item[]? Children { get; set; }
#pragma warning restore CA1819
}

/// <summary><see cref="Item"/> declared IsReference: DataContractSerializer writes object ids and references.</summary>
[DataContract(Namespace = LatencyNames.Namespace, IsReference = true)]
public sealed class RefItem
{
    [DataMember(Order = 0)]
    public string Name { get; set; } = string.Empty;

    [DataMember(Order = 1)]
    public string? Text { get; set; }

#pragma warning disable CA1819 // as above
    [DataMember(Order = 2)]
    public byte[]? Data { get; set; }

    [DataMember(Order = 3)]
    public RefItem[]? Children { get; set; }
#pragma warning restore CA1819
}

/// <summary>Names shared by the contracts and both servers.</summary>
public static class LatencyNames
{
    public const string Namespace = "urn:surrogate:latency";
}
