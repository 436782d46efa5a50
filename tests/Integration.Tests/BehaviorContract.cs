using System.Collections.Concurrent;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.Integration.Tests;

[DataContract(Namespace = "urn:surrogate:integration")]
public sealed class Money
{
    [DataMember] public decimal Amount { get; set; }
    [DataMember] public string Currency { get; set; } = "";
}

/// <summary>What Money travels as when the surrogate is applied: one text element.</summary>
[DataContract(Namespace = "urn:surrogate:integration")]
public sealed class MoneyText
{
    [DataMember] public string Text { get; set; } = "";
}

/// <summary>Records what the contract behavior and its pieces did, per side.</summary>
public static class BehaviorLog
{
    public static readonly ConcurrentQueue<string> Events = new();

    public static int Count(string name) => Events.Count(e => e == name);
}

public sealed class MoneySurrogateProvider(string side) : ISerializationSurrogateProvider
{
    public Type GetSurrogateType(Type type) => type == typeof(Money) ? typeof(MoneyText) : type;

    public object GetObjectToSerialize(object obj, Type targetType)
    {
        if (obj is not Money money)
        {
            return obj;
        }

        BehaviorLog.Events.Enqueue(side + ":serialize");
        return new MoneyText { Text = $"{money.Amount.ToString(System.Globalization.CultureInfo.InvariantCulture)} {money.Currency}" };
    }

    public object GetDeserializedObject(object obj, Type targetType)
    {
        if (obj is not MoneyText text)
        {
            return obj;
        }

        BehaviorLog.Events.Enqueue(side + ":deserialize");
        string[] parts = text.Text.Split(' ');
        return new Money { Amount = decimal.Parse(parts[0], System.Globalization.CultureInfo.InvariantCulture), Currency = parts[1] };
    }
}

/// <summary>A contract attribute in the shape of [DataSetSurrogate]: a serializer surrogate on both sides and a dispatch inspector.</summary>
[AttributeUsage(AttributeTargets.Interface)]
public sealed class MoneySurrogateAttribute : Attribute, IContractBehavior
{
    public void Validate(ContractDescription contractDescription, ServiceEndpoint endpoint) =>
        BehaviorLog.Events.Enqueue("validate");

    public void AddBindingParameters(ContractDescription contractDescription, ServiceEndpoint endpoint, BindingParameterCollection bindingParameters) =>
        BehaviorLog.Events.Enqueue("binding-parameters");

    public void ApplyClientBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, ClientRuntime clientRuntime) =>
        SetProvider(contractDescription, "client");

    public void ApplyDispatchBehavior(ContractDescription contractDescription, ServiceEndpoint endpoint, DispatchRuntime dispatchRuntime)
    {
        SetProvider(contractDescription, "service");
        dispatchRuntime.MessageInspectors.Add(new RecordingInspector());
    }

    private static void SetProvider(ContractDescription contract, string side)
    {
        foreach (OperationDescription operation in contract.Operations)
        {
            ((DataContractSerializerOperationBehavior)operation.OperationBehaviors[typeof(DataContractSerializerOperationBehavior)]).SerializationSurrogateProvider =
                new MoneySurrogateProvider(side);
        }
    }

    private sealed class RecordingInspector : IDispatchMessageInspector
    {
        public object? AfterReceiveRequest(ref Message request, IClientChannel channel, InstanceContext instanceContext)
        {
            BehaviorLog.Events.Enqueue("inspector:request " + request.Headers.Action);
            return request.Headers.Action;
        }

        public void BeforeSendReply(ref Message reply, object correlationState) =>
            BehaviorLog.Events.Enqueue($"inspector:reply {(reply.IsFault ? "fault" : "ok")} for {correlationState}");
    }
}

[ServiceContract(Namespace = "urn:surrogate:integration")]
[MoneySurrogate]
public interface IMoneyService
{
    [OperationContract] Task<Money> DoubleAsync(Money money);
    [OperationContract] Task<Money> RefuseAsync(Money money);
}

public sealed class MoneyService : IMoneyService
{
    public Task<Money> DoubleAsync(Money money) => Task.FromResult(new Money { Amount = money.Amount * 2, Currency = money.Currency });

    public Task<Money> RefuseAsync(Money money) => throw new FaultException("refused " + money.Currency);
}
