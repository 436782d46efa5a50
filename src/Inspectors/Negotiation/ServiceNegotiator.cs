namespace Surrogate.ServiceModel;

/// <summary>How the service handles one request.</summary>
/// <param name="Reader">What reads the operation's payload on this end, or null when the operation has no attribute.</param>
/// <param name="UnderstandPayloadMarker">Mark the mandatory Payload header understood; otherwise a payload request is refused.</param>
/// <param name="AnswerInPayload">Write the reply's DataSets as the payload.</param>
/// <param name="Announcement">What to announce on the reply, or null for nothing.</param>
internal readonly record struct RequestDecision<TReader>(TReader? Reader, bool UnderstandPayloadMarker, bool AnswerInPayload, PayloadReads? Announcement);

/// <summary>
/// The service's decisions, per operation (one instance per dispatch runtime, i.e. per endpoint). Only an operation
/// with the attribute on this end reads a payload request: for any other, the mandatory Payload header stays not
/// understood, so the host refuses the request with a MustUnderstand fault before the operation runs, instead of
/// handing it an empty DataSet. A reply is the payload only when the client announced on that request (it reads the
/// payload for that operation) and this end has the attribute on the operation. Replies to announced requests carry
/// what this end reads: every operation, or the list of request actions.
/// </summary>
internal sealed class ServiceNegotiator<TReader>(OperationTable<TReader> operations)
    where TReader : class
{
    /// <summary>The operations of the endpoint.</summary>
    public OperationTable<TReader> Operations => operations;

    /// <summary>Decides a request with action <paramref name="action"/>; <paramref name="announced"/>: it carried the Accept header.</summary>
    public RequestDecision<TReader> OnRequest(string? action, bool announced)
    {
        TReader? reader = operations.ReaderFor(action);
        return new RequestDecision<TReader>(
            reader,
            UnderstandPayloadMarker: reader is not null,
            AnswerInPayload: announced && reader is not null,
            Announcement: announced ? operations.Reads : null);
    }
}
