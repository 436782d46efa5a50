using System.IO.Pipelines;
using System.ServiceModel.Channels;
using Microsoft.Extensions.Logging;

namespace Surrogate.StandInHost.Transport;

/// <summary>
/// The server side of the .NET Message Framing protocol: reads the preamble, acknowledges it (or answers with a
/// framing fault and closes), then serves a duplex session (buffered transfer, <see cref="NetTcpSession"/>) or, for a
/// streamed binding, singleton-unsized exchanges (<see cref="NetTcpSingletonExchange"/>).
/// </summary>
internal sealed partial class NetTcpFramingHandler(IReadOnlyDictionary<string, SoapEndpoint> endpoints, ILogger logger)
{
    /// <summary>Serves one accepted connection until it ends.</summary>
    public async Task OnConnectedAsync(PipeReader input, PipeWriter output, string? remote, Action abort, CancellationToken aborted)
    {
        var reader = new FramingReader(input);
        try
        {
            // A streamed client sends a fresh preamble before each request on a pooled connection.
            while (await reader.ReadByteAsync(aborted).ConfigureAwait(false) is int first and >= 0)
            {
                (SoapEndpoint? endpoint, string? fault, string contentType, int mode) =
                    await ReadPreambleAsync(reader, first, aborted).ConfigureAwait(false);
                bool streamed = mode == FramingProtocol.SingletonUnsizedMode;
                if (endpoint is not null && endpoint.IsStreamed != streamed)
                {
                    (endpoint, fault) = (null, FramingProtocol.UnsupportedModeFault);
                }

                MessageEncoder? encoder = streamed ? endpoint?.EncoderFactory.Encoder : endpoint?.EncoderFactory.CreateSessionEncoder();
                if (endpoint is null || encoder is null || !encoder.IsContentTypeSupported(contentType))
                {
                    fault ??= FramingProtocol.ContentTypeInvalidFault;
                    LogPreambleRejected(logger, remote, fault);
                    await SendFaultAsync(output, fault).ConfigureAwait(false);
                    return;
                }

                FramingProtocol.WriteHeader(output, FramingProtocol.PreambleAckRecord, null);
                await output.FlushAsync(aborted).ConfigureAwait(false);
                if (!streamed)
                {
                    var session = new NetTcpSession(endpoint, encoder, contentType, output, abort, logger);
                    await session.RunAsync(reader, aborted).ConfigureAwait(false);
                    return;
                }

                await NetTcpSingletonExchange.RunAsync(endpoint, encoder, contentType, reader, output, aborted).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (aborted.IsCancellationRequested)
        {
            // The client went away; nothing is left to answer.
        }
        catch (Exception e) when (e is InvalidDataException or IOException or System.Net.Sockets.SocketException
            or System.Xml.XmlException or System.ServiceModel.CommunicationException)
        {
            LogConnectionFailed(logger, remote, e);
        }
    }

    private async Task<(SoapEndpoint? Endpoint, string? Fault, string ContentType, int Mode)> ReadPreambleAsync(
        FramingReader reader, int firstRecord, CancellationToken cancellationToken)
    {
        SoapEndpoint? endpoint = null;
        string? fault = null;
        string contentType = string.Empty;
        bool sawVersion = false;
        int mode = -1;
        for (int record = firstRecord; ; record = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false))
        {
            switch (record)
            {
                case FramingProtocol.VersionRecord:
                    int major = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    _ = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    sawVersion = true;
                    fault ??= major == 1 ? null : FramingProtocol.UnsupportedVersionFault;
                    break;
                case FramingProtocol.ModeRecord:
                    mode = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    fault ??= mode is FramingProtocol.DuplexMode or FramingProtocol.SingletonUnsizedMode
                        ? null
                        : FramingProtocol.UnsupportedModeFault;
                    break;
                case FramingProtocol.ViaRecord:
                    string via = await reader.ReadStringAsync(cancellationToken).ConfigureAwait(false);
                    endpoint = FindEndpoint(via);
                    fault ??= endpoint is null ? FramingProtocol.EndpointNotFoundFault : null;
                    break;
                case FramingProtocol.KnownEncodingRecord:
                    int code = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    contentType = FramingProtocol.KnownEncodingContentType((byte)code) ?? string.Empty;
                    fault ??= contentType.Length > 0 ? null : FramingProtocol.ContentTypeInvalidFault;
                    break;
                case FramingProtocol.ExtensibleEncodingRecord:
                    contentType = await reader.ReadStringAsync(cancellationToken).ConfigureAwait(false);
                    break;
                case FramingProtocol.UpgradeRequestRecord:
                    // Transport security is not offered (SecurityMode.None only).
                    return (null, FramingProtocol.UpgradeInvalidFault, contentType, mode);
                case FramingProtocol.PreambleEndRecord:
                    fault ??= sawVersion && mode >= 0 && endpoint is not null && contentType.Length > 0
                        ? null
                        : FramingProtocol.ContentTypeInvalidFault;
                    return fault is null ? (endpoint, null, contentType, mode) : (null, fault, contentType, mode);
                case -1:
                    throw new InvalidDataException("The connection ended inside the preamble.");
                default:
                    throw new InvalidDataException($"Unexpected record type 0x{record:X2} in the preamble.");
            }
        }
    }

    private SoapEndpoint? FindEndpoint(string via) =>
        Uri.TryCreate(via, UriKind.Absolute, out Uri? uri) && endpoints.TryGetValue(uri.AbsolutePath, out SoapEndpoint? endpoint)
            ? endpoint
            : null;

    private static async Task SendFaultAsync(PipeWriter output, string fault)
    {
        FramingProtocol.WriteFault(output, fault);
        await output.FlushAsync().ConfigureAwait(false);
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "net.tcp preamble from {Remote} rejected with {Fault}")]
    private static partial void LogPreambleRejected(ILogger logger, string? remote, string? fault);

    [LoggerMessage(Level = LogLevel.Warning, Message = "net.tcp connection from {Remote} failed")]
    private static partial void LogConnectionFailed(ILogger logger, string? remote, Exception exception);
}
