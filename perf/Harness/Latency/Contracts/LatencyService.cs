using System.Data;

namespace Surrogate.Perf.Harness.Latency.Contracts;

/// <summary>Where a one-way operation reports that it has its payload: the side channel (<see cref="Client.SignalHub"/>) or nothing (Direct).</summary>
public interface ISignalSink
{
    void Signal(int id);
}

/// <summary>A sink for the Direct scope, where the call's return already means the service has the payload.</summary>
public sealed class NoSignal : ISignalSink
{
    public static NoSignal Instance { get; } = new();

    public void Signal(int id)
    {
    }
}

/// <summary>
/// The latency service: every contract, measuring each payload (so nothing is optimised away and replies can be
/// checked) and, for one-way calls, signalling the caller. Stateless apart from the sink, so any instancing fits.
/// </summary>
public class LatencyService(ISignalSink signals) : ILatencyService, ISurrogateLatencyService, IXmlLatencyService, IStreamLatencyService
{
    public int Ping() => 0;

    public int SendBytes(byte[] data) => Payloads.Measure(data);

    public void PostBytes(int signal, byte[] data) => Done(signal, Payloads.Measure(data));

    public int SendText(string text) => Payloads.Measure(text);

    public void PostText(int signal, string text) => Done(signal, Payloads.Measure(text));

    public int SendItem(Item item) => Payloads.Measure(item);

    public void PostItem(int signal, Item item) => Done(signal, Payloads.Measure(item));

    public int SendRefItem(RefItem item) => Payloads.Measure(item);

    public void PostRefItem(int signal, RefItem item) => Done(signal, Payloads.Measure(item));

    public int SendDataSet(DataSet data) => Payloads.Measure(data);

    public void PostDataSet(int signal, DataSet data) => Done(signal, Payloads.Measure(data));

    public DataSet GetDataSet(int size) => Payloads.DataSet(size);

    public int SendStream(Stream data)
    {
        using (data)
        {
            return Payloads.Drain(data, signalled: false).Length;
        }
    }

    public void PostStream(Stream data)
    {
        using (data)
        {
            var (signal, length) = Payloads.Drain(data, signalled: true);
            Done(signal, length);
        }
    }

    private void Done(int signal, int measured)
    {
        GC.KeepAlive(measured);
        signals.Signal(signal);
    }
}
