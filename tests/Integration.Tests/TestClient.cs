using System.ServiceModel;

namespace Surrogate.Integration.Tests;

/// <summary>An opened factory and channel, closed (or aborted when faulted) on dispose.</summary>
public sealed class TestClient : IAsyncDisposable
{
    private readonly ChannelFactory<ITestService> factory;

    private TestClient(ChannelFactory<ITestService> factory, ITestService proxy)
    {
        this.factory = factory;
        Proxy = proxy;
    }

    public ITestService Proxy { get; }

    public static async Task<TestClient> OpenAsync(ChannelFactory<ITestService> factory)
    {
        await Task.Factory.FromAsync(factory.BeginOpen, factory.EndOpen, null);
        ITestService proxy = factory.CreateChannel();
        var channel = (IClientChannel)proxy;
        await Task.Factory.FromAsync(channel.BeginOpen, channel.EndOpen, null);
        return new TestClient(factory, proxy);
    }

    public async ValueTask DisposeAsync()
    {
        var channel = (IClientChannel)Proxy;
        try
        {
            if (channel.State == CommunicationState.Opened)
            {
                await Task.Factory.FromAsync(channel.BeginClose, channel.EndClose, null);
            }
            else
            {
                channel.Abort();
            }

            await Task.Factory.FromAsync(factory.BeginClose, factory.EndClose, null);
        }
        catch (CommunicationException)
        {
            channel.Abort();
            factory.Abort();
        }
        catch (TimeoutException)
        {
            channel.Abort();
            factory.Abort();
        }
    }
}
