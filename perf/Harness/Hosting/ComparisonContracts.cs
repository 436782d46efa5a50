using System.Data;
using System.ServiceModel;
using Surrogate.Perf.Scenarios;
using Surrogate.ServiceModel;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>The compared operations, carried as plain DataSet XML (WCF's default serializer).</summary>
[ServiceContract(Namespace = ComparisonContract.Namespace, Name = ComparisonContract.Name)]
public interface IComparisonService
{
    /// <summary>Returns the named scenario's DataSet (built once per server process).</summary>
    [OperationContract]
    DataSet GetDataSet(string scenario);

    /// <summary>Returns <paramref name="count"/> small data-contract objects: the "objects" reference case.</summary>
    [OperationContract]
    SmallObject[] GetObjects(int count);

    /// <summary>The seed benchmark's contract: the DataSet travels to the service and back in one call.</summary>
    /// <remarks>A DataSet parameter is what CA2356 warns of; the harness measures that contract as users have it, between its own processes.</remarks>
    [OperationContract]
#pragma warning disable CA2356
    DataSet LoadDataSet(DataSet ds);
#pragma warning restore CA2356
}

/// <summary>The same contract with the surrogate attribute: DataSets travel as the columnar payload.</summary>
[DataSetSurrogate]
[ServiceContract(Namespace = ComparisonContract.Namespace, Name = ComparisonContract.Name)]
public interface ISurrogateComparisonService
{
    /// <inheritdoc cref="IComparisonService.GetDataSet" />
    [OperationContract]
    DataSet GetDataSet(string scenario);

    /// <inheritdoc cref="IComparisonService.GetObjects" />
    [OperationContract]
    SmallObject[] GetObjects(int count);

    /// <inheritdoc cref="IComparisonService.LoadDataSet" />
    [OperationContract]
#pragma warning disable CA2356 // as above
    DataSet LoadDataSet(DataSet ds);
#pragma warning restore CA2356
}

/// <summary>Names shared by both contract interfaces, so their messages are identical apart from the payload.</summary>
public static class ComparisonContract
{
    public const string Namespace = "urn:surrogate:perf";
    public const string Name = "ComparisonService";
}

/// <summary>Serves cached scenario DataSets so a call measures transport and serialization, not scenario building.</summary>
public sealed class ComparisonService : IComparisonService, ISurrogateComparisonService
{
    private readonly ScenarioCache cache;

    public ComparisonService(ScenarioCache cache) => this.cache = cache;

    public DataSet GetDataSet(string scenario) => cache.DataSet(scenario);

    public SmallObject[] GetObjects(int count) => cache.Objects(count);

    public DataSet LoadDataSet(DataSet ds) => ds;
}
