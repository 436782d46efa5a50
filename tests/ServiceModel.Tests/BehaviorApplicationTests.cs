using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>How the attribute installs itself: once per operation and runtime, however often WCF applies it.</summary>
public sealed class BehaviorApplicationTests
{
    [Fact]
    public void Applying_twice_keeps_one_provider_per_operation_and_one_inspector()
    {
        using var factory = new ChannelFactory<IShop>(new BasicHttpBinding(), new EndpointAddress("http://127.0.0.1:9/shop"));
        ContractDescription contract = factory.Endpoint.Contract;
        var attribute = (DataSetSurrogateAttribute)contract.ContractBehaviors[typeof(DataSetSurrogateAttribute)];
        attribute.AddBindingParameters(contract, factory.Endpoint, new BindingParameterCollection());
        DataSetSurrogateProvider[] first = Providers(contract);

        // Endpoint behaviors run after contract behaviors: this one applies the attribute to the same runtime again.
        var capture = new RuntimeCapture(attribute);
        factory.Endpoint.EndpointBehaviors.Add(capture);
        factory.Open();

        Assert.Single(capture.Runtime!.ClientMessageInspectors.OfType<SurrogateClientInspector>());
        DataSetSurrogateProvider[] applied = Providers(contract);
        Assert.All(applied, p => Assert.Equal(SurrogateSide.Client, p.Side));
        Assert.DoesNotContain(applied, first.Contains);
        attribute.AddBindingParameters(contract, factory.Endpoint, new BindingParameterCollection());
        Assert.Equal(applied, Providers(contract));
        factory.Abort();
    }

    [Fact]
    public void Contract_and_operation_attributes_together_install_one_client_inspector()
    {
        using var factory = new ChannelFactory<IShop>(new BasicHttpBinding(), new EndpointAddress("http://127.0.0.1:9/shop"));
        factory.Endpoint.Contract.Operations.Find("Echo")!.OperationBehaviors.Add(new DataSetSurrogateAttribute());
        var capture = new RuntimeCapture();
        factory.Endpoint.EndpointBehaviors.Add(capture);
        factory.Open();

        Assert.Single(capture.Runtime!.ClientMessageInspectors.OfType<SurrogateClientInspector>());
        Assert.All(Providers(factory.Endpoint.Contract), p => Assert.Equal(SurrogateSide.Client, p.Side));
        factory.Abort();
    }

    [Fact]
    public void A_foreign_surrogate_provider_is_not_silently_replaced()
    {
        ContractDescription contract = ContractDescription.GetContract(typeof(IShop));
        var foreign = new ForeignProvider();
        contract.Operations.Find("Echo")!.Behaviors.Find<DataContractSerializerOperationBehavior>()!.SerializationSurrogateProvider = foreign;
        var attribute = (DataSetSurrogateAttribute)contract.ContractBehaviors[typeof(DataSetSurrogateAttribute)];
        var error = Assert.Throws<InvalidOperationException>(void () =>
            attribute.AddBindingParameters(contract, new ServiceEndpoint(contract), new BindingParameterCollection()));
        Assert.Contains("Echo", error.Message, StringComparison.Ordinal);
    }

    private static DataSetSurrogateProvider[] Providers(ContractDescription contract) =>
        contract.Operations
            .Select(o => o.Behaviors.Find<DataContractSerializerOperationBehavior>()!.SerializationSurrogateProvider)
            .Cast<DataSetSurrogateProvider>()
            .ToArray();

    private sealed class ForeignProvider : System.Runtime.Serialization.ISerializationSurrogateProvider
    {
        public object GetDeserializedObject(object obj, Type targetType) => obj;

        public object GetObjectToSerialize(object obj, Type targetType) => obj;

        public Type GetSurrogateType(Type type) => type;
    }
}
