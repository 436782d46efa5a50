using System.Collections.Frozen;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using System.Xml;

namespace Surrogate.StandInHost.Dispatch;

/// <summary>
/// The dispatcher of one endpoint: finds the operation by action, runs the dispatch message inspectors, reads the
/// request with WCF's formatter, calls the service and writes the reply or a SOAP fault.
/// </summary>
/// <remarks>
/// Behaviors run as WCF's dispatcher builder runs them: <c>Validate</c>, then <c>AddBindingParameters</c>, then
/// <c>ApplyDispatchBehavior</c> of the contract behaviors and then of each operation's behaviors, with
/// <see cref="DataContractSerializerOperationBehavior"/> last. They receive a real <see cref="DispatchRuntime"/> (the
/// callback dispatch runtime of a client runtime, the only one the client package lets code obtain) and real
/// <see cref="DispatchOperation"/>s; the host honours <see cref="DispatchRuntime.MessageInspectors"/>.
/// </remarks>
internal sealed class ContractDispatcher
{
    private readonly FrozenDictionary<string, DispatchedOperation> operations;
    private readonly IDispatchMessageInspector[] inspectors;
    private readonly SoapServiceHostBuilder.ServiceInstances instances;
    private readonly bool includeExceptionDetail;

    private ContractDispatcher(
        FrozenDictionary<string, DispatchedOperation> operations,
        IDispatchMessageInspector[] inspectors,
        SoapServiceHostBuilder.ServiceInstances instances,
        bool includeExceptionDetail)
    {
        this.operations = operations;
        this.inspectors = inspectors;
        this.instances = instances;
        this.includeExceptionDetail = includeExceptionDetail;
    }

    /// <summary>Builds the dispatcher of <paramref name="endpoint"/>, running its contract's behaviors.</summary>
    public static ContractDispatcher Build(ServiceEndpoint endpoint, SoapServiceHostBuilder.ServiceInstances instances, bool includeExceptionDetail)
    {
        ContractDispatcher? built = null;
        Exception? failure = null;
        DispatchRuntimeAnchor.Run(runtime =>
        {
            try
            {
                built = BuildWithin(runtime, endpoint, instances, includeExceptionDetail);
            }
#pragma warning disable CA1031 // Rethrown below, outside the client factory that hosts the build.
            catch (Exception e)
#pragma warning restore CA1031
            {
                failure = e;
            }
        });
        if (failure is not null)
        {
            throw new InvalidOperationException($"Building the dispatcher of contract '{endpoint.Contract.Name}' failed: {failure.Message}", failure);
        }

        return built ?? throw new InvalidOperationException("The dispatch runtime was never provided.");
    }

    /// <summary>Dispatches <paramref name="request"/>; returns the reply, a fault, or null for a one-way operation.</summary>
    public async Task<Message?> DispatchAsync(Message request, string? transportAction)
    {
        MessageVersion version = request.Version;
        string? action = request.Headers.Action;
        if (string.IsNullOrEmpty(action) && transportAction is not null)
        {
            // As WCF's HTTP transport does for SOAP 1.1: the SOAPAction header becomes the message's action, so
            // message inspectors and formatters see it.
            request.Headers.Action = action = transportAction;
        }

        UniqueId? messageId = version.Addressing == AddressingVersion.None ? null : request.Headers.MessageId;
        if (action is null || !operations.TryGetValue(action, out DispatchedOperation? operation))
        {
            return Correlate(SoapFaults.ActionNotSupported(version, action), messageId);
        }

        Message reply;
        var states = new object?[inspectors.Length];
        try
        {
            for (int i = 0; i < inspectors.Length; i++)
            {
                states[i] = inspectors[i].AfterReceiveRequest(ref request, null!, null!);
            }

            object?[] inputs;
            try
            {
                inputs = operation.Formatter.DeserializeRequest(request);
            }
#pragma warning disable CA1031 // Any failure to read the request is the caller's to see, as WCF reports it.
            catch (Exception e)
#pragma warning restore CA1031
            {
                return Correlate(SoapFaults.DeserializationFailed(version, operation.Name, e), messageId);
            }

            if (!request.Headers.HaveMandatoryHeadersBeenUnderstood())
            {
                return Correlate(SoapFaults.MustUnderstand(version, NotUnderstood(request.Headers)), messageId);
            }

            (object? result, object?[] outputs) = await InvokeAsync(operation, inputs).ConfigureAwait(false);
            if (operation.IsOneWay)
            {
                return null;
            }

            reply = operation.Formatter.SerializeReply(version, result, outputs);
        }
#pragma warning disable CA1031 // Every failure of an operation becomes a SOAP fault for the caller.
        catch (Exception e)
#pragma warning restore CA1031
        {
            if (operation.IsOneWay)
            {
                return null;
            }

            reply = SoapFaults.FromException(version, e, includeExceptionDetail);
        }

        reply = Correlate(reply, messageId);
        for (int i = inspectors.Length - 1; i >= 0; i--)
        {
            inspectors[i].BeforeSendReply(ref reply, states[i]);
        }

        return reply;
    }

    private async Task<(object? Result, object?[] Outputs)> InvokeAsync(DispatchedOperation operation, object?[] inputs)
    {
        object instance = instances.Create();
        try
        {
            return await operation.Invoker.InvokeAsync(instance, inputs).ConfigureAwait(false);
        }
        finally
        {
            if (instances.PerCall)
            {
                if (instance is IAsyncDisposable asyncDisposable)
                {
                    await asyncDisposable.DisposeAsync().ConfigureAwait(false);
                }
                else
                {
                    (instance as IDisposable)?.Dispose();
                }
            }
        }
    }

    /// <summary>A fault for a reply that could not be written (the reply's own serialization failed).</summary>
    public Message CreateWriteFault(Message failedReply, Exception exception) =>
        Correlate(SoapFaults.FromException(failedReply.Version, exception, includeExceptionDetail), failedReply.Headers.RelatesTo);

    /// <summary>A fault for a request over the endpoint's MaxReceivedMessageSize, correlated to <paramref name="messageId"/>.</summary>
    public static Message CreateQuotaFault(MessageVersion version, UniqueId messageId, int maxReceivedMessageSize) =>
        Correlate(SoapFaults.QuotaExceeded(version, maxReceivedMessageSize), messageId);

    /// <summary>The mandatory headers of a request that nothing marked understood (addressing headers always are).</summary>
    private static IEnumerable<MessageHeaderInfo> NotUnderstood(MessageHeaders headers) =>
        headers.Where(h => h.MustUnderstand && !headers.UnderstoodHeaders.Contains(h)
            && (headers.MessageVersion.Addressing == AddressingVersion.None || !IsAddressing(h.Namespace)));

    private static bool IsAddressing(string ns) =>
        ns is "http://www.w3.org/2005/08/addressing" or "http://schemas.xmlsoap.org/ws/2004/08/addressing";

    private static Message Correlate(Message reply, UniqueId? messageId)
    {
        if (messageId is not null)
        {
            reply.Headers.RelatesTo = messageId;
        }

        return reply;
    }

    private static ContractDispatcher BuildWithin(
        ClientRuntime anchor, ServiceEndpoint endpoint, SoapServiceHostBuilder.ServiceInstances instances, bool includeExceptionDetail)
    {
        ContractDescription contract = endpoint.Contract;
        DispatchRuntime runtime = anchor.CallbackDispatchRuntime;
        var parameters = new BindingParameterCollection();
        foreach (IContractBehavior behavior in contract.ContractBehaviors)
        {
            behavior.Validate(contract, endpoint);
        }

        foreach (OperationDescription operation in contract.Operations)
        {
            foreach (IOperationBehavior behavior in operation.OperationBehaviors)
            {
                behavior.Validate(operation);
            }
        }

        foreach (IContractBehavior behavior in contract.ContractBehaviors)
        {
            behavior.AddBindingParameters(contract, endpoint, parameters);
        }

        foreach (OperationDescription operation in contract.Operations)
        {
            foreach (IOperationBehavior behavior in operation.OperationBehaviors)
            {
                behavior.AddBindingParameters(operation, parameters);
            }
        }

        foreach (IContractBehavior behavior in contract.ContractBehaviors)
        {
            behavior.ApplyDispatchBehavior(contract, endpoint, runtime);
        }

        var byAction = new Dictionary<string, DispatchedOperation>(StringComparer.Ordinal);
        foreach (OperationDescription operation in contract.Operations)
        {
            string action = operation.Messages[0].Action;
            var dispatchOperation = new DispatchOperation(runtime, operation.Name, action);
            IOperationBehavior? serializer = null;
            foreach (IOperationBehavior behavior in operation.OperationBehaviors)
            {
                if (behavior is DataContractSerializerOperationBehavior)
                {
                    serializer = behavior;
                    continue;
                }

                behavior.ApplyDispatchBehavior(operation, dispatchOperation);
            }

            if (serializer is null)
            {
                throw new NotSupportedException(
                    $"Operation '{operation.Name}' is not formatted by DataContractSerializer; this host supports data-contract operations only.");
            }

            serializer.ApplyDispatchBehavior(operation, dispatchOperation);
            byAction.Add(action, new DispatchedOperation(
                operation.Name,
                MirroredOperationFormatter.Create(operation, serializer, anchor),
                new OperationMethodInvoker(operation),
                operation.IsOneWay));
        }

        return new ContractDispatcher(
            byAction.ToFrozenDictionary(StringComparer.Ordinal),
            [.. runtime.MessageInspectors],
            instances,
            includeExceptionDetail);
    }

    private sealed record DispatchedOperation(string Name, MirroredOperationFormatter Formatter, OperationMethodInvoker Invoker, bool IsOneWay);
}
