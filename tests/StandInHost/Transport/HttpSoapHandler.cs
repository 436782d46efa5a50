using System.ServiceModel.Channels;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Surrogate.StandInHost.Transport;

/// <summary>
/// Serves SOAP over HTTP POST on Kestrel with the endpoint binding's encoder: text SOAP 1.1 for BasicHttpBinding
/// (action from the SOAPAction header), binary (application/soap+msbin1) for a custom binding, or any encoder the
/// binding carries. Replies go back with 200, faults with 500, one-way requests get 202.
/// </summary>
internal sealed partial class HttpSoapHandler(IReadOnlyDictionary<string, SoapEndpoint> endpoints, ILogger logger)
{
    private readonly BufferManager buffers = BufferManager.CreateBufferManager(0, int.MaxValue);

    /// <summary>Handles one HTTP request.</summary>
    public async Task HandleAsync(HttpContext context)
    {
        HttpRequest request = context.Request;
        HttpResponse response = context.Response;
        if (!endpoints.TryGetValue(request.Path.Value ?? string.Empty, out SoapEndpoint? endpoint))
        {
            response.StatusCode = StatusCodes.Status404NotFound;
            return;
        }

        if (!HttpMethods.IsPost(request.Method))
        {
            response.StatusCode = StatusCodes.Status405MethodNotAllowed;
            return;
        }

        MessageEncoder encoder = endpoint.EncoderFactory.Encoder;
        string contentType = request.ContentType ?? string.Empty;
        if (!encoder.IsContentTypeSupported(contentType))
        {
            LogRejected(logger, endpoint.Path, $"content type '{contentType}' is not '{encoder.ContentType}'");
            response.StatusCode = StatusCodes.Status415UnsupportedMediaType;
            return;
        }

        if (request.ContentLength > endpoint.MaxReceivedMessageSize)
        {
            LogRejected(logger, endpoint.Path, $"{request.ContentLength} bytes exceed MaxReceivedMessageSize {endpoint.MaxReceivedMessageSize}");
            response.StatusCode = StatusCodes.Status413PayloadTooLarge;
            return;
        }

        (byte[] body, int length) = await ReadBodyAsync(request, endpoint.MaxReceivedMessageSize, context.RequestAborted).ConfigureAwait(false);
        if (length < 0)
        {
            buffers.ReturnBuffer(body);
            LogRejected(logger, endpoint.Path, $"the body exceeds MaxReceivedMessageSize {endpoint.MaxReceivedMessageSize}");
            response.StatusCode = StatusCodes.Status413PayloadTooLarge;
            return;
        }

        Message message;
        try
        {
            message = encoder.ReadMessage(new ArraySegment<byte>(body, 0, length), buffers, contentType);
        }
        catch (Exception e) when (e is System.Xml.XmlException or System.ServiceModel.CommunicationException or InvalidDataException)
        {
            LogRejected(logger, endpoint.Path, "the body is not a readable SOAP envelope: " + e.Message);
            response.StatusCode = StatusCodes.Status400BadRequest;
            return;
        }

        Message? reply;
        try
        {
            reply = await endpoint.Dispatcher.DispatchAsync(message, SoapAction(request)).ConfigureAwait(false);
        }
        finally
        {
            message.Close();
        }

        if (reply is null)
        {
            response.StatusCode = StatusCodes.Status202Accepted;
            return;
        }

        await WriteReplyAsync(response, endpoint, encoder, reply).ConfigureAwait(false);
    }

    private async Task WriteReplyAsync(HttpResponse response, SoapEndpoint endpoint, MessageEncoder encoder, Message reply)
    {
        if (reply.Version.Addressing == AddressingVersion.None)
        {
            // Without WS-Addressing the action travels in the SOAPAction header only, never in the envelope.
            reply.Headers.Action = null;
        }

        ArraySegment<byte> data;
        bool isFault = reply.IsFault;
        try
        {
            data = encoder.WriteMessage(reply, int.MaxValue, buffers, 0);
        }
#pragma warning disable CA1031 // A reply that cannot be written is answered with a fault.
        catch (Exception e)
#pragma warning restore CA1031
        {
            LogReplyFailed(logger, endpoint.Path, e);
            using Message fault = endpoint.Dispatcher.CreateWriteFault(reply, e);
            data = encoder.WriteMessage(fault, int.MaxValue, buffers, 0);
            isFault = true;
        }
        finally
        {
            reply.Close();
        }

        try
        {
            response.StatusCode = isFault ? StatusCodes.Status500InternalServerError : StatusCodes.Status200OK;
            response.ContentType = encoder.ContentType;
            response.ContentLength = data.Count;
            await response.Body.WriteAsync(data.AsMemory(), CancellationToken.None).ConfigureAwait(false);
        }
        finally
        {
            buffers.ReturnBuffer(data.Array!);
        }
    }

    /// <summary>Reads the body into a pooled buffer; the length is -1 when it is longer than <paramref name="max"/>.</summary>
    private async Task<(byte[] Buffer, int Length)> ReadBodyAsync(HttpRequest request, int max, CancellationToken cancellationToken)
    {
        int capacity = request.ContentLength is long declared ? (int)declared : Math.Min(max, 64 * 1024);
        byte[] buffer = buffers.TakeBuffer(Math.Max(capacity, 1));
        int length = 0;
        while (true)
        {
            if (length == buffer.Length)
            {
                if (length >= max)
                {
                    // One more byte tells an exact fit from an overflow.
                    var probe = new byte[1];
                    int extra = await request.Body.ReadAsync(probe, cancellationToken).ConfigureAwait(false);
                    return extra == 0 ? (buffer, length) : (buffer, -1);
                }

                byte[] larger = buffers.TakeBuffer((int)Math.Min((long)buffer.Length * 2, max));
                buffer.AsSpan(0, length).CopyTo(larger);
                buffers.ReturnBuffer(buffer);
                buffer = larger;
            }

            int read = await request.Body.ReadAsync(buffer.AsMemory(length), cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                return (buffer, length);
            }

            length += read;
        }
    }

    private static string? SoapAction(HttpRequest request)
    {
        string? action = request.Headers["SOAPAction"];
        return string.IsNullOrEmpty(action) ? null : action.Trim('"');
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "HTTP endpoint {Path}: request rejected: {Reason}")]
    private static partial void LogRejected(ILogger logger, string path, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "HTTP endpoint {Path}: writing a reply failed; a fault is sent instead")]
    private static partial void LogReplyFailed(ILogger logger, string path, Exception exception);
}
