using System.ServiceModel;
using System.Xml;

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
