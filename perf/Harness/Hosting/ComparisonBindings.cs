using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Surrogate.ServiceModel;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// Bindings used identically by the server and the client. Quotas are raised to the maximum on both sides: the
/// harness measures speed and size, and a 15,000-row DataSet as XML is far beyond WCF's 64 KB default message size.
/// </summary>
public static class ComparisonBindings
{
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(2);

    public static NetTcpBinding NetTcp() => new(SecurityMode.None)
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = XmlDictionaryReaderQuotas.Max,
        SendTimeout = Timeout,
        ReceiveTimeout = Timeout,
        OpenTimeout = Timeout,
        CloseTimeout = Timeout,
    };

    /// <summary>
    /// The client's NetTcp binding: <see cref="NetTcp"/> with 64 KB connection buffers, the cure for the loopback stall
    /// that the default 8 KB causes against CoreWCF (docs/wcf.md); the <c>-8k</c> cases keep the default.
    /// </summary>
    public static Binding NetTcpClient() => SurrogateBindings.WithConnectionBufferSize(NetTcp());

    public static BasicHttpBinding BasicHttp() => new(BasicHttpSecurityMode.None)
    {
        MaxReceivedMessageSize = int.MaxValue,
        MaxBufferSize = int.MaxValue,
        ReaderQuotas = XmlDictionaryReaderQuotas.Max,
        SendTimeout = Timeout,
        ReceiveTimeout = Timeout,
        OpenTimeout = Timeout,
        CloseTimeout = Timeout,
    };
}
