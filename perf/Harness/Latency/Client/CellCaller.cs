using System.Data;
using System.ServiceModel;
using Surrogate.Perf.Harness.Latency.Contracts;
using Surrogate.Perf.Harness.Latency.Matrix;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>
/// Makes the callers of one cell: one channel factory (or, for Direct, the service object itself) and per worker its
/// own channel and, for one-way calls, its own side-channel connection. The payload is built once per cell.
/// </summary>
public sealed class CellCaller : IDisposable
{
    private readonly LatencyCell cell;
    private readonly IReadOnlyDictionary<string, string> endpoints;
    private readonly ChannelFactory? factory;
    private readonly object? direct;
    private readonly object payload;
    private readonly List<IDisposable> workers = [];

    public CellCaller(LatencyCell cell, IReadOnlyDictionary<string, string> endpoints)
    {
        this.cell = cell;
        this.endpoints = endpoints;
        payload = CreatePayload(cell);
        Type contract = EndpointKeys.Contract(cell) switch
        {
            "stream" => typeof(IStreamLatencyService),
            "xml" => typeof(IXmlLatencyService),
            "surrogate" => typeof(ISurrogateLatencyService),
            _ => typeof(ILatencyService),
        };
        if (cell.Scope == Scope.Direct)
        {
            direct = new LatencyService(NoSignal.Instance);
            return;
        }

        string key = EndpointKeys.For(cell);
        if (!endpoints.TryGetValue(key, out string? address))
        {
            throw new InvalidOperationException($"The server offers no endpoint {key}.");
        }

        // HttpUds endpoints are announced as "<socket path>|<http address>": the request goes to the socket.
        string? unixSocket = null;
        if (cell.Binding == BindingKind.HttpUds)
        {
            (unixSocket, address) = (address.Split('|')[0], address.Split('|')[1]);
        }

        var binding = LatencyBindings.For(cell.Binding, cell.Security, cell.Transfer, client: true);
        factory = (ChannelFactory)Activator.CreateInstance(typeof(ChannelFactory<>).MakeGenericType(contract), binding, new EndpointAddress(address))!;
        LatencyBindings.Configure(factory, cell, endpoints, unixSocket);
        factory.Open();
    }

    /// <summary>What the service must measure of this cell's payload.</summary>
    public int Expected => Payloads.Expected(cell.Data, cell.Size);

    /// <summary>A new worker: its own channel (a session of its own where the binding has them) and signal connection.</summary>
    public CallWorker NewWorker()
    {
        object channel = direct ?? factory!.GetType().GetMethod("CreateChannel", Type.EmptyTypes)!.Invoke(factory, null)!;
        (channel as IClientChannel)?.Open();
        SignalReceiver? signal = cell.CallMode == CallMode.OneWay && direct is null ? new SignalReceiver(endpoints[EndpointKeys.Signal]) : null;
        var worker = new CallWorker(Bind(channel, signal?.Id ?? 0), cell.CallMode == CallMode.OneWay, Expected, signal, channel as IClientChannel);
        workers.Add(worker);
        return worker;
    }

    public void Dispose()
    {
        foreach (IDisposable worker in workers)
        {
            worker.Dispose();
        }

        if (factory is not null)
        {
            try
            {
                factory.Close();
            }
            catch (Exception e) when (e is CommunicationException or TimeoutException)
            {
                factory.Abort();
            }
        }
    }

    private static object CreatePayload(LatencyCell cell) => cell.Data switch
    {
        DataKind.Bytes or DataKind.Stream => Payloads.Bytes(cell.Size),
        DataKind.Text => Payloads.Text(cell.Size),
        DataKind.DataSet => Payloads.DataSet(cell.Size),
        _ => cell.Serializer == SerializerKind.DataContractReferences
            ? Payloads.RefItem(Payloads.Item(cell.Size, cell.Data != DataKind.Container, cell.Data == DataKind.NestedBinary))
            : Payloads.Item(cell.Size, cell.Data != DataKind.Container, cell.Data == DataKind.NestedBinary),
    };

    /// <summary>One call of this cell on <paramref name="channel"/>: the two-way reply, or null after a one-way send.</summary>
    private Func<int?> Bind(object channel, int signal)
    {
        bool oneWay = cell.CallMode == CallMode.OneWay;
        string contract = EndpointKeys.Contract(cell);
        if (contract == "stream")
        {
            var s = (IStreamLatencyService)channel;
            byte[] bytes = (byte[])payload;
            return oneWay ? () => { s.PostStream(Payloads.SignalStream(signal, bytes)); return null; } : () => s.SendStream(new MemoryStream(bytes, writable: false));
        }

        if (contract == "surrogate")
        {
            var s = (ISurrogateLatencyService)channel;
            var data = (DataSet)payload;
            return oneWay ? () => { s.PostDataSet(signal, data); return null; } : () => s.SendDataSet(data);
        }

        if (contract == "xml")
        {
            var x = (IXmlLatencyService)channel;
            return (payload, oneWay) switch
            {
                (byte[] b, true) => () => { x.PostBytes(signal, b); return null; },
                (byte[] b, false) => () => x.SendBytes(b),
                (string t, true) => () => { x.PostText(signal, t); return null; },
                (string t, false) => () => x.SendText(t),
                (Item i, true) => () => { x.PostItem(signal, i); return null; },
                (Item i, false) => () => x.SendItem(i),
                (DataSet d, true) => () => { x.PostDataSet(signal, d); return null; },
                (DataSet d, false) => () => x.SendDataSet(d),
                _ => throw new InvalidOperationException($"No XmlSerializer operation for {cell.Data}."),
            };
        }

        var m = (ILatencyService)channel;
        return (payload, oneWay) switch
        {
            (byte[] b, true) => () => { m.PostBytes(signal, b); return null; },
            (byte[] b, false) => () => m.SendBytes(b),
            (string t, true) => () => { m.PostText(signal, t); return null; },
            (string t, false) => () => m.SendText(t),
            (Item i, true) => () => { m.PostItem(signal, i); return null; },
            (Item i, false) => () => m.SendItem(i),
            (RefItem r, true) => () => { m.PostRefItem(signal, r); return null; },
            (RefItem r, false) => () => m.SendRefItem(r),
            (DataSet d, true) => () => { m.PostDataSet(signal, d); return null; },
            (DataSet d, false) => () => m.SendDataSet(d),
            _ => throw new InvalidOperationException($"No operation for {cell.Data}."),
        };
    }
}

/// <summary>One worker's caller: <see cref="Call"/> returns once the reply is in and checked, or once the service signalled a one-way call's receipt.</summary>
public sealed class CallWorker(Func<int?> call, bool oneWay, int expected, SignalReceiver? signal, IClientChannel? channel) : IDisposable
{
    public void Call()
    {
        int? measured = call();
        if (oneWay)
        {
            signal?.Wait();
        }
        else if (measured != expected)
        {
            throw new InvalidDataException(Payloads.Mismatch("reply", expected, measured ?? -1));
        }
    }

    public void Dispose()
    {
        signal?.Dispose();
        if (channel is null)
        {
            return;
        }

        try
        {
            channel.Close();
        }
        catch (Exception e) when (e is CommunicationException or TimeoutException)
        {
            channel.Abort();
        }
    }
}
