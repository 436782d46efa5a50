using System.Net;
using System.Net.Sockets;
using System.ServiceModel;
using System.ServiceModel.Description;
using System.Text;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// A TCP relay on 127.0.0.1 between a client and a host: counts and keeps the bytes of each direction, so a test
/// sees what actually travelled (sizes, and whether the payload marker was on the wire).
/// </summary>
public sealed class CountingProxy : ICountingRelay
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly List<TcpClient> _connections = [];
    private volatile int _targetPort;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _pumps = [];
    private readonly WireRecording _recording = new();

    public CountingProxy(int targetPort)
    {
        _targetPort = targetPort;
        _listener.Start();
        _pumps.Add(AcceptAsync());
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public byte[] Sent => _recording.Sent;

    public byte[] Received => _recording.Received;

    /// <summary>
    /// Sends new connections to <paramref name="targetPort"/> and drops the open ones, as a load balancer does when
    /// the service it pointed at is replaced.
    /// </summary>
    public void Retarget(int targetPort)
    {
        _targetPort = targetPort;
        lock (_pumps)
        {
            foreach (TcpClient connection in _connections)
            {
                connection.Dispose();
            }

            _connections.Clear();
        }
    }

    public void Reset() => _recording.Reset();

    /// <summary>
    /// Makes a client dial the relay's port. With WS-Addressing (net.tcp) it keeps the host's address, since its To
    /// header must name the endpoint the host knows, and sends to the relay as to a load balancer (a via); without
    /// (HTTP) the address itself takes the relay's port.
    /// </summary>
    public void Route(ServiceEndpoint endpoint)
    {
        var relay = new UriBuilder(endpoint.Address.Uri) { Port = Port }.Uri;
        if (endpoint.Binding.MessageVersion.Addressing == System.ServiceModel.Channels.AddressingVersion.None)
        {
            endpoint.Address = new EndpointAddress(relay);
        }
        else
        {
            endpoint.EndpointBehaviors.Add(new RelayVia(relay));
        }
    }

    public static bool Contains(byte[] bytes, string text) => bytes.AsSpan().IndexOf(Encoding.UTF8.GetBytes(text)) >= 0;

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        _listener.Stop();
        Task[] pumps;
        lock (_pumps)
        {
            pumps = [.. _pumps];
        }

        try
        {
            await Task.WhenAll(pumps).WaitAsync(TimeSpan.FromSeconds(5));
        }
        catch (Exception)
        {
            // Pumps end with socket errors once their connections are torn down.
        }

        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stop.Token);
            }
            catch (Exception)
            {
                return;
            }

            var target = new TcpClient();
            await target.ConnectAsync(IPAddress.Loopback, _targetPort);
            lock (_pumps)
            {
                _connections.Add(client);
                _connections.Add(target);
                _pumps.Add(PumpAsync(client, target, toHost: true));
                _pumps.Add(PumpAsync(target, client, toHost: false));
            }
        }
    }

    private async Task PumpAsync(TcpClient from, TcpClient to, bool toHost)
    {
        byte[] buffer = new byte[64 * 1024];
        try
        {
            NetworkStream input = from.GetStream();
            NetworkStream output = to.GetStream();
            int read;
            while ((read = await input.ReadAsync(buffer, _stop.Token)) > 0)
            {
                _recording.Record(toHost, buffer, read);

                await output.WriteAsync(buffer.AsMemory(0, read), _stop.Token);
            }
        }
        catch (Exception)
        {
            // A closed or cancelled connection ends the pump.
        }
        finally
        {
            from.Dispose();
            to.Dispose();
        }
    }

    /// <summary>Sends the client's messages to <paramref name="via"/> whatever their address (the client package has no ClientViaBehavior).</summary>
    private sealed class RelayVia(Uri via) : IEndpointBehavior
    {
        public void AddBindingParameters(ServiceEndpoint endpoint, System.ServiceModel.Channels.BindingParameterCollection bindingParameters)
        {
        }

        public void ApplyClientBehavior(ServiceEndpoint endpoint, System.ServiceModel.Dispatcher.ClientRuntime clientRuntime) => clientRuntime.Via = via;

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, System.ServiceModel.Dispatcher.EndpointDispatcher endpointDispatcher)
        {
        }

        public void Validate(ServiceEndpoint endpoint)
        {
        }
    }
}
