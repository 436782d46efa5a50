using System.Collections.Concurrent;
using System.Data;
using System.ServiceModel;

namespace Surrogate.ServiceModel.Tests;

/// <summary>Where an end of a call has <c>[DataSetSurrogate]</c>: on the whole contract, on some operations, or nowhere.</summary>
public enum Placement
{
    Contract,
    Operation,
    Absent,
}

/// <summary>
/// One wire contract in three builds that differ only in where the attribute sits. Two two-way and two one-way
/// operations; in the <see cref="Placement.Operation"/> build <c>Echo</c> and <c>Post</c> have it and <c>EchoOther</c>
/// and <c>PostOther</c> do not. Every operation takes a key under which the service records what it received.
/// </summary>
public static class PlacementContract
{
    public const string Name = "Placement";

    /// <summary>The operations of the contract, by name.</summary>
    public static readonly string[] Operations = ["Echo", "EchoOther", "Post", "PostOther"];

    /// <summary>Whether an end with the attribute at <paramref name="placement"/> reads the payload for <paramref name="operation"/>.</summary>
    public static bool Reads(Placement placement, string operation) => placement switch
    {
        Placement.Contract => true,
        Placement.Operation => operation is "Echo" or "Post",
        _ => false,
    };

    public static bool IsOneWay(string operation) => operation.StartsWith("Post", StringComparison.Ordinal);
}

[ServiceContract(Name = PlacementContract.Name, Namespace = Shop.Namespace)]
[DataSetSurrogate]
public interface IPlacementOnContract
{
    [OperationContract(Name = "Echo")]
    Task<DataSet> EchoAsync(string key, DataSet value);

    [OperationContract(Name = "EchoOther")]
    Task<DataSet> EchoOtherAsync(string key, DataSet value);

    [OperationContract(Name = "Post", IsOneWay = true)]
    Task PostAsync(string key, DataSet value);

    [OperationContract(Name = "PostOther", IsOneWay = true)]
    Task PostOtherAsync(string key, DataSet value);
}

[ServiceContract(Name = PlacementContract.Name, Namespace = Shop.Namespace)]
public interface IPlacementOnOperation
{
    [OperationContract(Name = "Echo")]
    [DataSetSurrogate]
    Task<DataSet> EchoAsync(string key, DataSet value);

    [OperationContract(Name = "EchoOther")]
    Task<DataSet> EchoOtherAsync(string key, DataSet value);

    [OperationContract(Name = "Post", IsOneWay = true)]
    [DataSetSurrogate]
    Task PostAsync(string key, DataSet value);

    [OperationContract(Name = "PostOther", IsOneWay = true)]
    Task PostOtherAsync(string key, DataSet value);
}

[ServiceContract(Name = PlacementContract.Name, Namespace = Shop.Namespace)]
public interface IPlacementAbsent
{
    [OperationContract(Name = "Echo")]
    Task<DataSet> EchoAsync(string key, DataSet value);

    [OperationContract(Name = "EchoOther")]
    Task<DataSet> EchoOtherAsync(string key, DataSet value);

    [OperationContract(Name = "Post", IsOneWay = true)]
    Task PostAsync(string key, DataSet value);

    [OperationContract(Name = "PostOther", IsOneWay = true)]
    Task PostOtherAsync(string key, DataSet value);
}

/// <summary>Serves every build and records each DataSet it receives under the caller's key, for server-side checks.</summary>
public sealed class PlacementService : IPlacementOnContract, IPlacementOnOperation, IPlacementAbsent
{
    private static readonly TimeSpan ArrivalDeadline = TimeSpan.FromSeconds(15);
    private readonly ConcurrentDictionary<string, TaskCompletionSource<DataSet>> _received = new();

    /// <summary>The DataSet the service received under <paramref name="key"/>, once it has (one-way calls return before).</summary>
    public Task<DataSet> ReceivedAsync(string key) => Slot(key).Task.WaitAsync(ArrivalDeadline);

    /// <summary>Whether an operation ran for <paramref name="key"/> (without waiting).</summary>
    public bool HasReceived(string key) => _received.TryGetValue(key, out TaskCompletionSource<DataSet>? slot) && slot.Task.IsCompleted;

    public Task<DataSet> EchoAsync(string key, DataSet value) => Task.FromResult(Record(key, value));

    public Task<DataSet> EchoOtherAsync(string key, DataSet value) => Task.FromResult(Record(key, value));

    public Task PostAsync(string key, DataSet value)
    {
        Record(key, value);
        return Task.CompletedTask;
    }

    public Task PostOtherAsync(string key, DataSet value)
    {
        Record(key, value);
        return Task.CompletedTask;
    }

    private DataSet Record(string key, DataSet value)
    {
        if (!Slot(key).TrySetResult(value))
        {
            throw new InvalidOperationException($"Key '{key}' was received twice.");
        }

        return value;
    }

    private TaskCompletionSource<DataSet> Slot(string key) =>
        _received.GetOrAdd(key, static _ => new TaskCompletionSource<DataSet>(TaskCreationOptions.RunContinuationsAsynchronously));
}

/// <summary>Calls an operation of any build by name, so one test body serves every placement.</summary>
public static class PlacementCalls
{
    public static Type ContractFor(Placement placement) => placement switch
    {
        Placement.Contract => typeof(IPlacementOnContract),
        Placement.Operation => typeof(IPlacementOnOperation),
        _ => typeof(IPlacementAbsent),
    };

    /// <summary>Calls <paramref name="operation"/> on a channel of <paramref name="contract"/>; the echo, or null for a one-way operation.</summary>
    public static async Task<DataSet?> CallAsync(Type contract, object channel, string operation, string key, DataSet value)
    {
        var call = (Task)contract.GetMethod(operation + "Async")!.Invoke(channel, [key, value])!;
        await call;
        return call is Task<DataSet> echo ? echo.Result : null;
    }
}
