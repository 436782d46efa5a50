using System.Data;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>The suite's tests of the attribute on one operation only (<see cref="IShopOneOperation"/>).</summary>
public abstract partial class TransportContract
{
    /// <summary>How a DataSet written as plain XML says so: its rows travel as a diffgram.</summary>
    private const string DiffGramNamespace = "urn:schemas-microsoft-com:xml-diffgram-v1";

    [Fact]
    public async Task Attribute_on_one_operation_gives_the_payload_to_that_operation_only()
    {
        IShopOneOperation client = Open<IShopOneOperation>(ShopHost.OneOperation);
        DataSet value = SampleData.Orders();

        // The client has not heard from the service yet: plain request, and the service answers in the payload.
        Host.Proxy.Reset();
        Same(value, await client.EchoAsync(value));
        AssertFormat(request: false, reply: true);

        Host.Proxy.Reset();
        Same(value, await client.EchoAsync(value));
        AssertFormat(request: true, reply: true);

        // Same endpoint, same channel, and the client now knows the service reads the payload: no attribute, no payload.
        Host.Proxy.Reset();
        Same(value, await client.EchoWithoutAttributeAsync(value));
        AssertFormat(request: false, reply: false);
        Assert.True(CountingProxy.Contains(Host.Proxy.Sent, DiffGramNamespace), $"{Host.TransportName}: the request should carry DataSet XML");
        Assert.True(CountingProxy.Contains(Host.Proxy.Received, DiffGramNamespace), $"{Host.TransportName}: the reply should carry DataSet XML");
    }
}
