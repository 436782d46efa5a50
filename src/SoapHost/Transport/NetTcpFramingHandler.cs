using System.IO.Pipelines;
using System.ServiceModel.Channels;
using Microsoft.Extensions.Logging;

namespace Surrogate.SoapHost.Transport;

/// <summary>
/// The server side of the .NET Message Framing protocol in duplex session mode: reads the preamble, acknowledges it
/// (or answers with a framing fault and closes), then reads sized envelopes, dispatches each concurrently and writes
/// each reply as a sized envelope, until the client's end record.
/// </summary>
internal sealed partial class NetTcpFramingHandler(IReadOnlyDictionary<string, SoapEndpoint> endpoints, ILogger logger)
{
    /// <summary>Serves one accepted connection until it ends.</summary>
    public async Task OnConnectedAsync(PipeReader input, PipeWriter output, string? remote, Action abort, CancellationToken aborted)
    {
        var reader = new FramingReader(input);
        try
        {
            (SoapEndpoint? endpoint, string? fault, string contentType) = await ReadPreambleAsync(reader, aborted).ConfigureAwait(false);
            if (endpoint is null)
            {
                LogPreambleRejected(logger, remote, fault);
                await SendFaultAsync(output, fault!).ConfigureAwait(false);
                return;
            }

            MessageEncoder encoder = endpoint.EncoderFactory.CreateSessionEncoder();
            if (!encoder.IsContentTypeSupported(contentType))
            {
                LogPreambleRejected(logger, remote, FramingProtocol.ContentTypeInvalidFault);
                await SendFaultAsync(output, FramingProtocol.ContentTypeInvalidFault).ConfigureAwait(false);
                return;
            }

            FramingProtocol.WriteHeader(output, FramingProtocol.PreambleAckRecord, null);
            await output.FlushAsync(aborted).ConfigureAwait(false);
            var session = new NetTcpSession(endpoint, encoder, contentType, output, abort, logger);
            await session.RunAsync(reader, aborted).ConfigureAwait(false);
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

    private async Task<(SoapEndpoint? Endpoint, string? Fault, string ContentType)> ReadPreambleAsync(
        FramingReader reader, CancellationToken cancellationToken)
    {
        SoapEndpoint? endpoint = null;
        string? fault = null;
        string contentType = string.Empty;
        bool sawVersion = false, sawMode = false;
        while (true)
        {
            int record = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
            switch (record)
            {
                case FramingProtocol.VersionRecord:
                    int major = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    _ = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    sawVersion = true;
                    fault ??= major == 1 ? null : FramingProtocol.UnsupportedVersionFault;
                    break;
                case FramingProtocol.ModeRecord:
                    int mode = await reader.ReadByteAsync(cancellationToken).ConfigureAwait(false);
                    sawMode = true;
                    fault ??= mode == FramingProtocol.DuplexMode ? null : FramingProtocol.UnsupportedModeFault;
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
                    return (null, FramingProtocol.UpgradeInvalidFault, contentType);
                case FramingProtocol.PreambleEndRecord:
                    fault ??= sawVersion && sawMode && endpoint is not null && contentType.Length > 0
                        ? null
                        : FramingProtocol.ContentTypeInvalidFault;
                    return fault is null ? (endpoint, null, contentType) : (null, fault, contentType);
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
