using System.ServiceModel;
using System.ServiceModel.Channels;
using Surrogate.AsmxCompare;
using Surrogate.Perf.Scenarios;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// One side-by-side contender: which server endpoint it calls and how its client is made. <paramref name="Direction"/>:
/// <c>reply</c> (the DataSet comes back from the service) or <c>both</c> (LoadDataSet: it goes to the service and back).
/// <paramref name="OptIn"/> cases run only when named with <c>--cases</c>.
/// </summary>
public sealed record ComparisonCase(string Name, string Label, string Endpoint, bool UsesScenario, Func<Uri, ICaseClient> CreateClient, string Direction = "reply", bool OptIn = false);

/// <summary>A connected client for one case; <see cref="Call"/> makes one request and returns the rows received.</summary>
public interface ICaseClient : IDisposable
{
    int Call(string scenario);
}

/// <summary>The cases of the comparison, in report order; the first is the baseline every ratio is taken against.</summary>
public static class ComparisonCases
{
    public const string Baseline = "nettcp-binary";
    public const string ObjectsScenario = "objects-10000";
    public const int ObjectCount = ScenarioCache.ObjectCount;

    /// <summary>The client process's scenarios: what LoadDataSet sends (the same deterministic data the server builds).</summary>
    private static readonly ScenarioCache ClientScenarios = new();

    public static IReadOnlyList<ComparisonCase> All { get; } =
    [
        new(Baseline, "DataSet, NetTcp binary (baseline)", ServerEndpoints.NetTcpPlain, true,
            uri => new WcfCaseClient<IComparisonService>(ComparisonBindings.NetTcpClient(), uri, (c, s) => ScenarioCatalog.RowCount(c.GetDataSet(s)))),
        new("nettcp-surrogate", "[DataSetSurrogate], NetTcp binary", ServerEndpoints.NetTcpSurrogate, true,
            uri => new WcfCaseClient<ISurrogateComparisonService>(ComparisonBindings.NetTcpClient(), uri, (c, s) => ScenarioCatalog.RowCount(c.GetDataSet(s)))),
        new("nettcp-binary-load", "DataSet both ways (LoadDataSet), NetTcp binary", ServerEndpoints.NetTcpPlain, true,
            uri => new WcfCaseClient<IComparisonService>(ComparisonBindings.NetTcpClient(), uri, (c, s) => ScenarioCatalog.RowCount(c.LoadDataSet(ClientScenarios.DataSet(s)))), "both"),
        new("nettcp-surrogate-load", "[DataSetSurrogate] both ways (LoadDataSet), NetTcp binary", ServerEndpoints.NetTcpSurrogate, true,
            uri => new WcfCaseClient<ISurrogateComparisonService>(ComparisonBindings.NetTcpClient(), uri, (c, s) => ScenarioCatalog.RowCount(c.LoadDataSet(ClientScenarios.DataSet(s)))), "both"),
        new("basichttp-text", "DataSet, BasicHttp text", ServerEndpoints.BasicHttpPlain, true,
            uri => new WcfCaseClient<IComparisonService>(ComparisonBindings.BasicHttp(), uri, (c, s) => ScenarioCatalog.RowCount(c.GetDataSet(s)))),
        new("asmx-text", "DataSet, ASMX-style SOAP (XmlTextReader)", ServerEndpoints.Asmx, true,
            uri => new AsmxCaseClient(uri)),
        new("objects", "10,000 SmallObject, NetTcp binary", ServerEndpoints.NetTcpPlain, false,
            uri => new WcfCaseClient<IComparisonService>(ComparisonBindings.NetTcpClient(), uri, (c, _) => c.GetObjects(ObjectCount).Length)),
        // The loopback stall (docs/wcf.md): the client's default NetTcpBinding, 8 KB connection buffers. Opt-in: against
        // CoreWCF a 1 MB reply takes seconds per call.
        new("nettcp-binary-8k", "DataSet, NetTcp binary, default 8 KB client buffers", ServerEndpoints.NetTcpPlain, true,
            uri => new WcfCaseClient<IComparisonService>(ComparisonBindings.NetTcp(), uri, (c, s) => ScenarioCatalog.RowCount(c.GetDataSet(s))), OptIn: true),
        new("nettcp-surrogate-8k", "[DataSetSurrogate], NetTcp binary, default 8 KB client buffers", ServerEndpoints.NetTcpSurrogate, true,
            uri => new WcfCaseClient<ISurrogateComparisonService>(ComparisonBindings.NetTcp(), uri, (c, s) => ScenarioCatalog.RowCount(c.GetDataSet(s))), OptIn: true),
    ];

    /// <summary>The cases a run has unless <c>--cases</c> names others.</summary>
    public static IReadOnlyList<string> Defaults { get; } = All.Where(c => !c.OptIn).Select(c => c.Name).ToList();

    public static ComparisonCase Get(string name) =>
        All.FirstOrDefault(c => c.Name == name) ?? throw new ArgumentException($"Unknown case '{name}'.", nameof(name));
}

/// <summary>The ASMX-style client: SOAP 1.1 over one keep-alive HttpClient, replies read with XmlTextReader.</summary>
public sealed class AsmxCaseClient(Uri address) : ICaseClient
{
    private readonly AsmxClient client = new(address);

    public int Call(string scenario) => ScenarioCatalog.RowCount(client.GetDataSet(scenario));

    public void Dispose() => client.Dispose();
}

/// <summary>A real WCF client: one opened factory and channel reused for every call, as a long-lived client would.</summary>
public sealed class WcfCaseClient<TContract> : ICaseClient
{
    private readonly ChannelFactory<TContract> factory;
    private readonly TContract channel;
    private readonly Func<TContract, string, int> call;

    public WcfCaseClient(Binding binding, Uri address, Func<TContract, string, int> call)
    {
        factory = new ChannelFactory<TContract>(binding, new EndpointAddress(address));
        factory.Open();
        channel = factory.CreateChannel();
        ((IClientChannel)channel!).Open();
        this.call = call;
    }

    public int Call(string scenario) => call(channel, scenario);

    public void Dispose()
    {
        var client = (IClientChannel)channel!;
        try
        {
            client.Close();
            factory.Close();
        }
        catch (CommunicationException)
        {
            client.Abort();
            factory.Abort();
        }
        catch (TimeoutException)
        {
            client.Abort();
            factory.Abort();
        }
    }
}
