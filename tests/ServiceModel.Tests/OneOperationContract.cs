using System.Data;
using System.ServiceModel;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The attribute on one operation, not on the contract: <see cref="EchoAsync"/> negotiates the payload, while its
/// sibling with the same signature, on the same endpoint and channel, has no attribute.
/// </summary>
[ServiceContract(Name = "ShopOneOperation", Namespace = Shop.Namespace)]
public interface IShopOneOperation
{
    [OperationContract]
    [DataSetSurrogate]
    Task<DataSet> EchoAsync(DataSet value);

    [OperationContract]
    Task<DataSet> EchoWithoutAttributeAsync(DataSet value);
}

public sealed class OneOperationShopService : IShopOneOperation
{
    public Task<DataSet> EchoAsync(DataSet value) => Task.FromResult(value);

    public Task<DataSet> EchoWithoutAttributeAsync(DataSet value) => Task.FromResult(value);
}
