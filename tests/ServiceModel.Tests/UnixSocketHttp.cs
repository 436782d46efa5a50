using System.Net.Http;
using System.Net.Sockets;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// Sends a WCF HTTP client's requests over a Unix domain socket, as the integration suite does. The .NET WCF client
/// takes its HTTP handler from a <c>Func&lt;HttpClientHandler, HttpMessageHandler&gt;</c> binding parameter; this one
/// connects every request to the socket, whatever host and port the endpoint address names. (The client's own Unix
/// socket package, System.ServiceModel.UnixDomainSocket, is not in the package source.)
/// </summary>
public sealed class UnixSocketHttp(string socketPath) : IEndpointBehavior
{
    public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters) =>
        bindingParameters.Add(new Func<HttpClientHandler, HttpMessageHandler>(_ => new SocketsHttpHandler
        {
            ConnectCallback = async (_, cancellationToken) =>
            {
                var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                try
                {
                    await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), cancellationToken);
                    return new NetworkStream(socket, ownsSocket: true);
                }
                catch
                {
                    socket.Dispose();
                    throw;
                }
            },
        }));

    public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
    {
    }

    public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
    {
    }

    public void Validate(ServiceEndpoint endpoint)
    {
    }
}
