using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.StandInHost.Dispatch;

/// <summary>
/// Reads requests and writes replies of one operation with WCF's own operation formatter
/// (<c>DataContractSerializerOperationFormatter</c> or <c>PrimitiveOperationFormatter</c>).
/// </summary>
/// <remarks>
/// The client package's reference surface exposes no <c>IDispatchMessageFormatter</c>, so the dispatch half of the
/// formatter cannot be reached. Its client half can: <see cref="IOperationBehavior.ApplyClientBehavior"/> of the
/// operation's <see cref="DataContractSerializerOperationBehavior"/> builds a public <see cref="IClientMessageFormatter"/>.
/// Applied to a mirrored description (the reply described as the request and the request as the reply), that
/// formatter's <c>DeserializeReply</c> reads the real request body and its <c>SerializeRequest</c> writes the real
/// reply body, byte for byte the layout WCF writes (wrapper names, part names, namespaces). The serializers come from
/// the operation's own behavior instance, so its <c>SerializationSurrogateProvider</c>, <c>MaxItemsInObjectGraph</c>
/// and <c>DataContractResolver</c> apply exactly as on the client.
/// </remarks>
internal sealed class MirroredOperationFormatter
{
    private readonly IClientMessageFormatter formatter;
    private readonly int requestPartCount;

    private MirroredOperationFormatter(IClientMessageFormatter formatter, int requestPartCount, bool hasReturnValue)
    {
        this.formatter = formatter;
        this.requestPartCount = requestPartCount;
        HasReturnValue = hasReturnValue;
    }

    /// <summary>Whether the reply body carries a return value ahead of the out/ref parts.</summary>
    public bool HasReturnValue { get; }

    /// <summary>Builds the formatter of <paramref name="operation"/> through <paramref name="serializerBehavior"/>.</summary>
    public static MirroredOperationFormatter Create(
        OperationDescription operation, IOperationBehavior serializerBehavior, ClientRuntime anchorRuntime)
    {
        MessageDescription request = operation.Messages[0];
        MessageDescription? reply = operation.Messages.Count > 1 ? operation.Messages[1] : null;
        if (request.Body.Parts.Any(p => p.Type == typeof(Message)) || request.IsMessageContract() || (reply?.IsMessageContract() ?? false))
        {
            throw new NotSupportedException(
                $"Operation '{operation.Name}' uses message contracts or untyped messages; this host formats data-contract operations only.");
        }

        var mirror = new OperationDescription(operation.Name, operation.DeclaringContract);

        // The mirrored request is the real reply: return value first, then the out/ref parts, as WCF writes them.
        var mirroredRequest = new MessageDescription(reply?.Action ?? request.Action + "Response", MessageDirection.Input);
        mirroredRequest.Body.WrapperName = reply?.Body.WrapperName ?? operation.Name + "Response";
        mirroredRequest.Body.WrapperNamespace = reply?.Body.WrapperNamespace ?? request.Body.WrapperNamespace;
        int index = 0;
        bool hasReturnValue = false;
        if (reply?.Body.ReturnValue is { } returnValue && returnValue.Type != typeof(void))
        {
            mirroredRequest.Body.Parts.Add(CopyPart(returnValue, index++));
            hasReturnValue = true;
        }

        foreach (MessagePartDescription part in reply?.Body.Parts ?? Enumerable.Empty<MessagePartDescription>())
        {
            mirroredRequest.Body.Parts.Add(CopyPart(part, index++));
        }

        // The mirrored reply is the real request, with a void return value.
        var mirroredReply = new MessageDescription(request.Action, MessageDirection.Output);
        mirroredReply.Body.WrapperName = request.Body.WrapperName;
        mirroredReply.Body.WrapperNamespace = request.Body.WrapperNamespace;
        mirroredReply.Body.ReturnValue = new MessagePartDescription(operation.Name + "Result", request.Body.WrapperNamespace ?? string.Empty)
        {
            Type = typeof(void),
        };
        foreach (MessagePartDescription part in request.Body.Parts)
        {
            mirroredReply.Body.Parts.Add(CopyPart(part, part.Index));
        }

        mirror.Messages.Add(mirroredRequest);
        mirror.Messages.Add(mirroredReply);

        var clientOperation = new ClientOperation(anchorRuntime, operation.Name, mirroredRequest.Action, request.Action);
        serializerBehavior.ApplyClientBehavior(mirror, clientOperation);
        IClientMessageFormatter formatter = clientOperation.Formatter
            ?? throw new InvalidOperationException($"The serializer behavior of operation '{operation.Name}' built no formatter.");
        return new MirroredOperationFormatter(formatter, request.Body.Parts.Count, hasReturnValue);
    }

    /// <summary>Reads the request's input parameters (in order of the method's in and ref parameters).</summary>
    public object?[] DeserializeRequest(Message request)
    {
        var inputs = new object?[requestPartCount];
        formatter.DeserializeReply(request, inputs);
        return inputs;
    }

    /// <summary>Writes the reply: the return value (when the operation has one) followed by out/ref values.</summary>
    public Message SerializeReply(MessageVersion version, object? result, object?[] outputs)
    {
        object?[] parts = outputs;
        if (HasReturnValue)
        {
            parts = new object?[outputs.Length + 1];
            parts[0] = result;
            outputs.CopyTo(parts, 1);
        }

        return formatter.SerializeRequest(version, parts);
    }

    private static MessagePartDescription CopyPart(MessagePartDescription part, int index) =>
        new(part.Name, part.Namespace ?? string.Empty)
        {
            Type = part.Type,
            Index = index,
            Multiple = part.Multiple,
        };
}

/// <summary>Message-description helpers.</summary>
internal static class MessageDescriptionExtensions
{
    /// <summary>Whether the message is a message contract (typed message) rather than a parameter list.</summary>
    public static bool IsMessageContract(this MessageDescription message) =>
        message.MessageType is { } type && type != typeof(void);
}
