using System.Data;
using System.Diagnostics;
using System.ServiceModel;
using HdrHistogram;
using Surrogate.Perf.Harness.Latency.Contracts;
using Surrogate.Perf.Harness.Latency.Matrix;

namespace Surrogate.Perf.Harness.Latency.Client;

/// <summary>
/// The soak's clients: half call the plain contract's GetDataSet, half the [DataSetSurrogate] one's, over NetTcp
/// (PerCall), each on its own thread and channel, until the time is up. Every reply is checked: row count and a
/// checksum of every value against the client's own copy of the same deterministic DataSet. A failed call or a wrong
/// reply counts as an error (the channel is replaced after a failure) and the run goes on.
/// </summary>
public static class SoakClients
{
    private const int KeptErrors = 10;

    public static SoakClientResult Run(SoakSpec spec, Action<long, long, double> progress)
    {
        DataSet expected = Payloads.DataSet(spec.Size);
        int rows = expected.Tables[0].Rows.Count;
        ulong checksum = Payloads.Checksum(expected);
        string plainKey = EndpointKeys.For(BindingKind.NetTcp, Security.None, Instancing.PerCall, Transfer.Buffered, "main");
        string surrogateKey = EndpointKeys.For(BindingKind.NetTcp, Security.None, Instancing.PerCall, Transfer.Buffered, "surrogate");
        var binding = LatencyBindings.For(BindingKind.NetTcp, Security.None, Transfer.Buffered, client: true);
        using var plain = new ChannelFactory<ILatencyService>(binding, new EndpointAddress(spec.Endpoints[plainKey]));
        using var surrogate = new ChannelFactory<ISurrogateLatencyService>(binding, new EndpointAddress(spec.Endpoints[surrogateKey]));

        long calls = 0, plainCalls = 0, surrogateCalls = 0, errors = 0;
        var firstErrors = new List<string>();
        void Error(string message)
        {
            Interlocked.Increment(ref errors);
            lock (firstErrors)
            {
                if (firstErrors.Count < KeptErrors)
                {
                    firstErrors.Add(message);
                }
            }
        }

        var clock = Stopwatch.StartNew();
        var plainHistograms = new List<LongHistogram>();
        var surrogateHistograms = new List<LongHistogram>();
        var threads = Enumerable.Range(0, spec.Clients).Select(i => new Thread(() =>
        {
            bool isPlain = i % 2 == 0;
            LongHistogram histogram = Histograms.Create();
            lock (plainHistograms)
            {
                (isPlain ? plainHistograms : surrogateHistograms).Add(histogram);
            }

            Func<int, DataSet> call = Connect(isPlain, plain, surrogate, out var channel);
            while (clock.Elapsed.TotalSeconds < spec.Seconds)
            {
                long start = Stopwatch.GetTimestamp();
                try
                {
                    DataSet reply = call(spec.Size);
                    Histograms.Record(histogram, Stopwatch.GetTimestamp() - start);
                    int got = reply.Tables.Count == 1 ? reply.Tables[0].Rows.Count : -1;
                    if (got != rows || Payloads.Checksum(reply) != checksum)
                    {
                        Error($"{(isPlain ? "plain" : "surrogate")}: {got} rows (expected {rows}) or a different checksum");
                    }
                }
                catch (Exception e) when (e is CommunicationException or TimeoutException or InvalidOperationException)
                {
                    Error($"{(isPlain ? "plain" : "surrogate")}: {e.GetType().Name}: {e.Message}");
                    channel.Abort();
                    call = Connect(isPlain, plain, surrogate, out channel);
                }

                Interlocked.Increment(ref calls);
                Interlocked.Increment(ref isPlain ? ref plainCalls : ref surrogateCalls);
            }

            Close(channel);
        }) { IsBackground = true, Name = "soak-client-" + i }).ToList();
        threads.ForEach(t => t.Start());
        while (!threads.All(t => t.Join(1000)))
        {
            progress(Interlocked.Read(ref calls), Interlocked.Read(ref errors), clock.Elapsed.TotalSeconds);
        }

        return new SoakClientResult(clock.Elapsed.TotalSeconds, plainCalls, surrogateCalls, errors, firstErrors,
            Histograms.Summarize(Histograms.Merge(plainHistograms)), Histograms.Summarize(Histograms.Merge(surrogateHistograms)));
    }

    private static Func<int, DataSet> Connect(bool isPlain, ChannelFactory<ILatencyService> plain, ChannelFactory<ISurrogateLatencyService> surrogate, out IClientChannel channel)
    {
        if (isPlain)
        {
            ILatencyService p = plain.CreateChannel();
            channel = (IClientChannel)p;
            channel.Open();
            return p.GetDataSet;
        }

        ISurrogateLatencyService s = surrogate.CreateChannel();
        channel = (IClientChannel)s;
        channel.Open();
        return s.GetDataSet;
    }

    private static void Close(IClientChannel channel)
    {
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
