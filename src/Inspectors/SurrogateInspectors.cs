using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel;

/// <summary>
/// Client half on System.ServiceModel messages (one per client runtime): reads and writes the negotiation headers and
/// wraps messages; <see cref="ClientNegotiator"/> decides.
/// </summary>
internal sealed class SurrogateClientInspector(OperationTable<DataSetSurrogateProvider> operations) : IClientMessageInspector
{
    private readonly ClientNegotiator _negotiator = new();

    public OperationTable<DataSetSurrogateProvider> Operations => operations;

    public object? BeforeSendRequest(ref Message request, IClientChannel channel)
    {
        if (!SurrogateHeaders.CanCarryHeaders(request))
        {
            return null;
        }

        string? action = request.Headers.Action;
        DataSetSurrogateProvider? reader = operations.ReaderFor(action);
        RequestPlan plan = _negotiator.Plan(operations.Find(action), reader is not null, channel?.SessionId is null ? null : channel, !request.IsEmpty);
        if (plan.Announce)
        {
            SurrogateHeaders.AskForPayload(request);
        }

        if (plan.Payload)
        {
            SurrogateHeaders.MarkPayload(request);
            request = new SurrogateWriteMessage(request);
        }

        return plan.Announce ? new Call(plan.Correlation, reader!) : null;
    }

    public void AfterReceiveReply(ref Message reply, object? correlationState)
    {
        if (reply is null || correlationState is not Call call)
        {
            return;
        }

        _negotiator.Learn(call.Negotiation, SurrogateHeaders.ReadAnnouncement(reply));
        reply = new SurrogateReadMessage(reply, call.Reader);
    }

    private sealed record Call(object? Negotiation, DataSetSurrogateProvider Reader);
}

/// <summary>
/// Service half on System.ServiceModel messages (one per dispatch runtime): reads and writes the negotiation headers
/// and wraps messages; <see cref="ServiceNegotiator{TReader}"/> decides.
/// </summary>
internal sealed class SurrogateDispatchInspector(OperationTable<DataSetSurrogateProvider> operations) : IDispatchMessageInspector
{
    private readonly ServiceNegotiator<DataSetSurrogateProvider> _negotiator = new(operations);

    public OperationTable<DataSetSurrogateProvider> Operations => operations;

    public object? AfterReceiveRequest(ref Message request, IClientChannel channel, InstanceContext instanceContext)
    {
        if (request is null)
        {
            return null;
        }

        RequestDecision<DataSetSurrogateProvider> decision = _negotiator.OnRequest(request.Headers.Action, SurrogateHeaders.AsksForPayload(request));
        if (decision.UnderstandPayloadMarker)
        {
            SurrogateHeaders.UnderstandPayloadMarker(request);
        }

        if (decision.Reader is { } reader)
        {
            request = new SurrogateReadMessage(request, reader);
        }

        return decision.Announcement is null ? null : decision;
    }

    public void BeforeSendReply(ref Message reply, object? correlationState)
    {
        if (reply is null || correlationState is not RequestDecision<DataSetSurrogateProvider> decision)
        {
            return;
        }

        SurrogateHeaders.Announce(reply, decision.Announcement!);
        if (decision.AnswerInPayload && !reply.IsEmpty && !reply.IsFault)
        {
            reply = new SurrogateWriteMessage(reply);
        }
    }
}
