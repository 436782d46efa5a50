using System.Net;
using System.Net.Sockets;
using System.ServiceModel;
using System.ServiceModel.Description;

namespace Surrogate.ServiceModel.Tests;

/// <summary>What a <see cref="FaultyRelay"/> does to the bytes of one direction.</summary>
/// <param name="CutAfter">Closes both connections once this many bytes have passed (null: never).</param>
/// <param name="CorruptAt">From this byte offset on, 256 bytes are overwritten with 0xFF (null: never).</param>
/// <param name="StallAfter">Stops forwarding after this many bytes but keeps the connections open (null: never).</param>
/// <param name="ChunkBytes">Forwards at most this many bytes per write.</param>
/// <param name="ChunkDelay">Waits this long after each write: a slow peer or link.</param>
public sealed record Fault(long? CutAfter = null, long? CorruptAt = null, long? StallAfter = null, int ChunkBytes = 64 * 1024, TimeSpan ChunkDelay = default)
{
    public static readonly Fault None = new();
}

/// <summary>
/// A TCP relay on 127.0.0.1 that damages traffic on purpose: it truncates, corrupts, stalls or slows the request
/// (client to host) or reply (host to client) bytes of every connection, and counts what each direction carried.
/// </summary>
public sealed class FaultyRelay : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly int _targetPort;
    private readonly Fault _request;
    private readonly Fault _reply;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _pumps = [];
    private long _requestBytes;
    private long _replyBytes;

    public FaultyRelay(int targetPort, Fault? request = null, Fault? reply = null)
    {
        (_targetPort, _request, _reply) = (targetPort, request ?? Fault.None, reply ?? Fault.None);
        _listener.Start();
        _pumps.Add(AcceptAsync());
    }

    public long RequestBytes => Interlocked.Read(ref _requestBytes);

    public long ReplyBytes => Interlocked.Read(ref _replyBytes);

    /// <summary>A client keeps the host's address with the relay's port.</summary>
    public void Route(ServiceEndpoint endpoint) =>
        endpoint.Address = new EndpointAddress(new UriBuilder(endpoint.Address.Uri) { Port = ((IPEndPoint)_listener.LocalEndpoint).Port }.Uri);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        Task[] pumps;
        lock (_pumps)
        {
            pumps = [.. _pumps];
        }

        await Task.WhenAll(pumps).WaitAsync(TimeSpan.FromSeconds(10)).ContinueWith(_ => { }, TaskScheduler.Default);
        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            var target = new TcpClient();
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stop.Token);
                await target.ConnectAsync(IPAddress.Loopback, _targetPort, _stop.Token);
            }
            catch (Exception)
            {
                target.Dispose();
                return;
            }

            lock (_pumps)
            {
                _pumps.Add(PumpAsync(client, target, _request, bytes => Interlocked.Add(ref _requestBytes, bytes)));
                _pumps.Add(PumpAsync(target, client, _reply, bytes => Interlocked.Add(ref _replyBytes, bytes)));
            }
        }
    }

    private async Task PumpAsync(TcpClient from, TcpClient to, Fault fault, Action<long> count)
    {
        var buffer = new byte[fault.ChunkBytes];
        long passed = 0;
        try
        {
            var input = from.GetStream();
            var output = to.GetStream();
            int read;
            while ((read = await input.ReadAsync(buffer, _stop.Token)) > 0)
            {
                if (fault.StallAfter is { } stall && passed + read > stall)
                {
                    await output.WriteAsync(buffer.AsMemory(0, (int)Math.Max(0, stall - passed)), _stop.Token);
                    await Task.Delay(Timeout.Infinite, _stop.Token);
                }

                if (fault.CutAfter is { } cut && passed + read > cut)
                {
                    await output.WriteAsync(buffer.AsMemory(0, (int)Math.Max(0, cut - passed)), _stop.Token);
                    count(cut - passed);
                    return;
                }

                if (fault.CorruptAt is { } at)
                {
                    for (var i = 0; i < read; i++)
                    {
                        if (passed + i >= at && passed + i < at + 256)
                        {
                            buffer[i] = 0xFF;
                        }
                    }
                }

                await output.WriteAsync(buffer.AsMemory(0, read), _stop.Token);
                passed += read;
                count(read);
                if (fault.ChunkDelay > TimeSpan.Zero)
                {
                    await Task.Delay(fault.ChunkDelay, _stop.Token);
                }
            }
        }
        catch (Exception)
        {
            // A closed, reset or cancelled connection ends the pump.
        }
        finally
        {
            from.Dispose();
            to.Dispose();
        }
    }
}
