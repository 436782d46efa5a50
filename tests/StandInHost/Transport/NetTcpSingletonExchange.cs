using System.Buffers;
using System.IO.Pipelines;
using System.ServiceModel.Channels;
using Surrogate.StandInHost.Dispatch;

namespace Surrogate.StandInHost.Transport;

/// <summary>
/// One request-reply exchange in singleton-unsized mode (net.tcp with TransferMode.Streamed): the request arrives as
/// an unsized envelope of size-prefixed chunks ended by an empty chunk and an end record; the reply goes back the same
/// way. The request is gathered (up to MaxReceivedMessageSize) and read with the binding's non-session encoder, so
/// data-contract operations work; Stream-typed parameters are not supported by this host.
/// </summary>
internal static class NetTcpSingletonExchange
{
    public static async Task RunAsync(
        SoapEndpoint endpoint, MessageEncoder encoder, string contentType, FramingReader reader, PipeWriter output, CancellationToken aborted)
    {
        int record = await reader.ReadByteAsync(aborted).ConfigureAwait(false);
        if (record != FramingProtocol.UnsizedEnvelopeRecord)
        {
            throw new InvalidDataException($"Expected an unsized envelope record, got 0x{record:X2}.");
        }

        var buffers = BufferManager.CreateBufferManager(0, int.MaxValue);
        byte[] body = buffers.TakeBuffer(Math.Min(endpoint.MaxReceivedMessageSize, 64 * 1024));
        int length = 0;
        bool tooLarge = false;
        while (await reader.ReadSizeAsync(aborted).ConfigureAwait(false) is int chunk and > 0)
        {
            if (tooLarge || (long)length + chunk > endpoint.MaxReceivedMessageSize)
            {
                tooLarge = true;
                await reader.SkipAsync(chunk, aborted).ConfigureAwait(false);
                continue;
            }

            if (length + chunk > body.Length)
            {
                byte[] larger = buffers.TakeBuffer((int)Math.Min(Math.Max((long)body.Length * 2, length + chunk), endpoint.MaxReceivedMessageSize));
                body.AsSpan(0, length).CopyTo(larger);
                body = larger;
            }

            await reader.ReadExactlyAsync(body.AsMemory(length, chunk), aborted).ConfigureAwait(false);
            length += chunk;
        }

        if (await reader.ReadByteAsync(aborted).ConfigureAwait(false) != FramingProtocol.EndRecord)
        {
            throw new InvalidDataException("A streamed request did not end with an end record.");
        }

        Message? reply;
        if (tooLarge)
        {
            reply = SoapFaults.QuotaExceeded(encoder.MessageVersion, endpoint.MaxReceivedMessageSize);
        }
        else
        {
            Message request = encoder.ReadMessage(new ArraySegment<byte>(body, 0, length), buffers, contentType);
            try
            {
                reply = await endpoint.Dispatcher.DispatchAsync(request, transportAction: null).ConfigureAwait(false);
            }
            finally
            {
                request.Close();
            }
        }

        if (reply is not null)
        {
            await WriteReplyAsync(endpoint, encoder, reply, output).ConfigureAwait(false);
        }

        FramingProtocol.WriteHeader(output, FramingProtocol.EndRecord, null);
        await output.FlushAsync(aborted).ConfigureAwait(false);
    }

    private static async Task WriteReplyAsync(SoapEndpoint endpoint, MessageEncoder encoder, Message reply, PipeWriter output)
    {
        ArraySegment<byte> data;
        try
        {
            data = encoder.WriteMessage(reply, int.MaxValue, BufferManager.CreateBufferManager(0, int.MaxValue), 0);
        }
#pragma warning disable CA1031 // A reply that cannot be written is answered with a fault.
        catch (Exception e)
#pragma warning restore CA1031
        {
            using Message fault = endpoint.Dispatcher.CreateWriteFault(reply, e);
            data = encoder.WriteMessage(fault, int.MaxValue, BufferManager.CreateBufferManager(0, int.MaxValue), 0);
        }
        finally
        {
            reply.Close();
        }

        FramingProtocol.WriteHeader(output, FramingProtocol.UnsizedEnvelopeRecord, null);
        FramingProtocol.WriteSize(output, data.Count);
        output.Write(data.AsSpan());
        FramingProtocol.WriteSize(output, 0);
        await output.FlushAsync(CancellationToken.None).ConfigureAwait(false);
    }
}
