using Microsoft.Extensions.DependencyInjection;
using Xunit;
using Client = System.ServiceModel;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// What a CoreWCF host needs for BasicHttp with TransferMode.Streamed, shown without the adapter (a plain DataSet
/// service): CoreWCF 1.9.1 reads the streamed request with an XmlReader that reads Kestrel's request body synchronously
/// (and flushes a streamed reply synchronously), so with Kestrel's default AllowSynchronousIO off every call is
/// answered 400 Bad Request; with it on, calls work. The transport suite's streamed BasicHttp host sets it
/// (docs/wcf.md, "Streamed HTTP on CoreWCF").
/// </summary>
public sealed class StreamedHttpHostTests
{
    private const string Path = "/streamed";

    [Theory]
    [InlineData(Client.TransferMode.Streamed)]
    [InlineData(Client.TransferMode.Buffered)]
    public async Task Without_synchronous_IO_a_streamed_BasicHttp_service_answers_400(Client.TransferMode clientMode)
    {
        await using CoreWcfServer server = await StartAsync(allowSynchronousIO: false);
        var refused = await Assert.ThrowsAsync<Client.ProtocolException>(() => Channel(server, clientMode).CountRowsAsync(SampleData.Orders()));
        Assert.Contains("(400) Bad Request", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Client.TransferMode.Streamed)]
    [InlineData(Client.TransferMode.Buffered)]
    public async Task With_synchronous_IO_a_streamed_BasicHttp_service_answers(Client.TransferMode clientMode)
    {
        await using CoreWcfServer server = await StartAsync(allowSynchronousIO: true);
        Assert.Equal(6, await Channel(server, clientMode).CountRowsAsync(SampleData.Orders(3)));
    }

    private static Task<CoreWcfServer> StartAsync(bool allowSynchronousIO) =>
        CoreWcfServer.StartAsync("http", [Path], services => services.AddSingleton(new NewShopService(new ShopService())),
            (b, address) => b.AddService<NewShopService>().AddServiceEndpoint<NewShopService, IShop>(
                new global::CoreWCF.BasicHttpBinding { TransferMode = global::CoreWCF.TransferMode.Streamed }, address(Path)),
            allowSynchronousIO);

    private static IShop Channel(CoreWcfServer server, Client.TransferMode mode)
    {
        var binding = new Client.BasicHttpBinding { TransferMode = mode };
        binding.SendTimeout = binding.ReceiveTimeout = binding.OpenTimeout = TimeSpan.FromSeconds(15);
        return new Client.ChannelFactory<IShop>(binding, new Client.EndpointAddress(server.GetEndpointAddress(Path))).CreateChannel();
    }
}
