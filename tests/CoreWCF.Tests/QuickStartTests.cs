using System.Data;
using System.Net;
using System.ServiceModel;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Surrogate.CoreWCF;
using Surrogate.ServiceModel;
using Xunit;

// Outside the Surrogate namespaces, as in an application: there "CoreWCF." names the CoreWCF packages' namespace.
namespace QuickStart;

/// <summary>README's quick start, as written there (between the markers), compiled and run.</summary>
public sealed class QuickStartTests
{
    [Fact]
    public async Task The_readme_quick_start_serves_and_calls()
    {
        // README quick start: begin
        var builder = WebApplication.CreateBuilder();
        builder.WebHost.UseNetTcp(IPAddress.Loopback, 8808);
        builder.Services.AddServiceModelServices().AddDataSetSurrogate();   // the one line for the attribute
        var app = builder.Build();
        app.UseServiceModel(b => b.AddService<OrdersService>()
            .AddServiceEndpoint<OrdersService, IOrders>(new CoreWCF.NetTcpBinding(CoreWCF.SecurityMode.None), "/orders"));
        await app.StartAsync();

        var binding = SurrogateBindings.WithConnectionBufferSize(new NetTcpBinding(SecurityMode.None)); // 64 KB buffers
        var factory = new ChannelFactory<IOrders>(binding, new EndpointAddress("net.tcp://127.0.0.1:8808/orders"));
        DataSet orders = await factory.CreateChannel().GetOrdersAsync(42);
        // README quick start: end

        Assert.Equal(42, orders.Tables[0].Rows[0][0]);
        factory.Abort();
        await app.StopAsync();
    }
}

[ServiceContract, DataSetSurrogate]
public interface IOrders
{
    [OperationContract] Task<DataSet> GetOrdersAsync(int customer);
}

public sealed class OrdersService : IOrders
{
    public Task<DataSet> GetOrdersAsync(int customer)
    {
        var orders = new DataSet("Orders");
        orders.Tables.Add("Order").Columns.Add("Customer", typeof(int));
        orders.Tables[0].Rows.Add(customer);
        return Task.FromResult(orders);
    }
}
