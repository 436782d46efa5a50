using System.ServiceModel;
using Surrogate.StandInHost;
using Xunit;

namespace Surrogate.Integration.Tests;

/// <summary>A contract attribute runs on the host as on the client: its serializer surrogate and its dispatch inspector.</summary>
[Collection(nameof(BehaviorTests))] // BehaviorLog is shared by every test of this class.
public sealed class BehaviorTests
{
    [Theory]
    [MemberData(nameof(Bindings.Transports), MemberType = typeof(Bindings))]
    public async Task Contract_attribute_applies_its_surrogate_and_inspector_on_the_host(string transport)
    {
        string path = "/money/" + transport;
        await using var host = await SoapServiceHost.StartAsync(b =>
        {
            b.AddService<IMoneyService>(new MoneyService());
            if (Bindings.IsTcp(transport))
            {
                b.AddNetTcpEndpoint<IMoneyService>(path, Bindings.Create(transport));
            }
            else
            {
                b.AddHttpEndpoint<IMoneyService>(path, Bindings.Create(transport));
            }
        });
        Assert.Contains("validate", BehaviorLog.Events);
        Assert.Contains("binding-parameters", BehaviorLog.Events);

        var factory = new ChannelFactory<IMoneyService>(Bindings.Create(transport), new EndpointAddress(host.GetEndpointAddress(path)));
        IMoneyService proxy = factory.CreateChannel();
        int serviceReads = BehaviorLog.Count("service:deserialize"), serviceWrites = BehaviorLog.Count("service:serialize");
        int before = BehaviorLog.Events.Count; // the log is shared by every transport: look only at this call's events
        try
        {
            Money doubled = await proxy.DoubleAsync(new Money { Amount = 12.5m, Currency = "EUR" });
            Assert.Equal(25m, doubled.Amount);
            Assert.Equal("EUR", doubled.Currency);
            Assert.True(BehaviorLog.Count("service:deserialize") > serviceReads, "The host did not read through the surrogate.");
            Assert.True(BehaviorLog.Count("service:serialize") > serviceWrites, "The host did not write through the surrogate.");
            Assert.Contains("inspector:request urn:surrogate:integration/IMoneyService/Double", BehaviorLog.Events.Skip(before));
            Assert.Contains("inspector:reply ok for urn:surrogate:integration/IMoneyService/Double", BehaviorLog.Events.Skip(before));

            FaultException fault = await Assert.ThrowsAsync<FaultException>(() => proxy.RefuseAsync(new Money { Amount = 1, Currency = "CHF" }));
            Assert.Equal("refused CHF", fault.Message);
            Assert.Contains("inspector:reply fault for urn:surrogate:integration/IMoneyService/Refuse", BehaviorLog.Events.Skip(before));
        }
        finally
        {
            ((IClientChannel)proxy).Abort();
            factory.Abort();
        }
    }
}
