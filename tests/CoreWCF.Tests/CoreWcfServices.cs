using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.ServiceModel.Tests;

// CoreWCF allows one contract name per service, and IShop/IShopOld (and the three placement builds) are builds of one
// wire contract: each build gets its own service class here, over the suite's shared implementations.

public sealed class NewShopService(ShopService shop) : IShop
{
    public Task<DataSet> EchoAsync(DataSet value) => shop.EchoAsync(value);

    public Task<ShopDataSet> EchoTypedAsync(ShopDataSet value) => shop.EchoTypedAsync(value);

    public Task<OrdersTypedDataSet> EchoOrdersTypedAsync(OrdersTypedDataSet value) => shop.EchoOrdersTypedAsync(value);

    public Task<Envelope> EchoEnvelopeAsync(Envelope value) => shop.EchoEnvelopeAsync(value);

    public Task<List<DataTable>> EchoTablesAsync(List<DataTable> value) => shop.EchoTablesAsync(value);

    public DataSet Swap(DataSet input, ref DataTable table, out DataSet copy) => shop.Swap(input, ref table, out copy);

    public Task<int> CountRowsAsync(DataSet value) => shop.CountRowsAsync(value);
}

public sealed class OldShopService(ShopService shop) : IShopOld
{
    public Task<DataSet> EchoAsync(DataSet value) => shop.EchoAsync(value);

    public Task<ShopDataSet> EchoTypedAsync(ShopDataSet value) => shop.EchoTypedAsync(value);

    public Task<OrdersTypedDataSet> EchoOrdersTypedAsync(OrdersTypedDataSet value) => shop.EchoOrdersTypedAsync(value);

    public Task<Envelope> EchoEnvelopeAsync(Envelope value) => shop.EchoEnvelopeAsync(value);

    public Task<List<DataTable>> EchoTablesAsync(List<DataTable> value) => shop.EchoTablesAsync(value);

    public DataSet Swap(DataSet input, ref DataTable table, out DataSet copy) => shop.Swap(input, ref table, out copy);

    public Task<int> CountRowsAsync(DataSet value) => shop.CountRowsAsync(value);
}

public sealed class PlacementOnContractService(PlacementService placements) : IPlacementOnContract
{
    public Task<DataSet> EchoAsync(string key, DataSet value) => placements.EchoAsync(key, value);

    public Task<DataSet> EchoOtherAsync(string key, DataSet value) => placements.EchoOtherAsync(key, value);

    public Task PostAsync(string key, DataSet value) => placements.PostAsync(key, value);

    public Task PostOtherAsync(string key, DataSet value) => placements.PostOtherAsync(key, value);
}

public sealed class PlacementOnOperationService(PlacementService placements) : IPlacementOnOperation
{
    public Task<DataSet> EchoAsync(string key, DataSet value) => placements.EchoAsync(key, value);

    public Task<DataSet> EchoOtherAsync(string key, DataSet value) => placements.EchoOtherAsync(key, value);

    public Task PostAsync(string key, DataSet value) => placements.PostAsync(key, value);

    public Task PostOtherAsync(string key, DataSet value) => placements.PostOtherAsync(key, value);
}

public sealed class PlacementAbsentService(PlacementService placements) : IPlacementAbsent
{
    public Task<DataSet> EchoAsync(string key, DataSet value) => placements.EchoAsync(key, value);

    public Task<DataSet> EchoOtherAsync(string key, DataSet value) => placements.EchoOtherAsync(key, value);

    public Task PostAsync(string key, DataSet value) => placements.PostAsync(key, value);

    public Task PostOtherAsync(string key, DataSet value) => placements.PostOtherAsync(key, value);
}
