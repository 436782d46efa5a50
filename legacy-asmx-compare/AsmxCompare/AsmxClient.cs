using System.Data;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Xml;
using Surrogate.Perf.Scenarios;

namespace Surrogate.AsmxCompare;

/// <summary>
/// The client side of the ASMX-style service: envelopes built with XmlTextWriter, replies read with XmlTextReader,
/// one keep-alive HttpClient reused for every call. Reports the bytes of the last call.
/// </summary>
public sealed class AsmxClient : IDisposable
{
    private readonly HttpClient http;
    private readonly Uri address;

    public AsmxClient(Uri address)
    {
        this.address = address;
        http = new HttpClient(new SocketsHttpHandler { PooledConnectionLifetime = Timeout.InfiniteTimeSpan, AutomaticDecompression = DecompressionMethods.None })
        {
            Timeout = TimeSpan.FromMinutes(2),
        };
    }

    /// <summary>Bytes of the last request body and response body (SOAP envelopes, without HTTP headers).</summary>
    public (long Request, long Response) LastBytes { get; private set; }

    public DataSet GetDataSet(string scenario) =>
        Call("GetDataSet", w => w.WriteElementString("scenario", AsmxSoap.ServiceNamespace, scenario), "GetDataSetResult", AsmxSoap.ReadDataSet);

    public DataSet EchoDataSet(DataSet dataSet) =>
        Call("EchoDataSet", w => AsmxSoap.WriteDataSet(w, "ds", dataSet), "EchoDataSetResult", AsmxSoap.ReadDataSet);

    public SmallObject[] GetObjects(int count) =>
        Call("GetObjects", w => w.WriteElementString("count", AsmxSoap.ServiceNamespace, count.ToString(CultureInfo.InvariantCulture)),
            "GetObjectsResult", AsmxSoap.ReadObjects);

    private T Call<T>(string operation, Action<XmlWriter> parameters, string resultElement, Func<XmlReader, T> read)
    {
        var body = AsmxSoap.Envelope(operation, parameters);
        using var message = new HttpRequestMessage(HttpMethod.Post, address) { Content = new ByteArrayContent(body) };
        message.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(AsmxSoap.ContentType);
        message.Headers.Add("SOAPAction", $"\"{AsmxSoap.ServiceNamespace}{operation}\"");
        using var response = http.Send(message, HttpCompletionOption.ResponseHeadersRead);
        // Sized from Content-Length, so buffering the reply costs one copy rather than a series of regrowths.
        using var buffered = new MemoryStream(checked((int)(response.Content.Headers.ContentLength ?? 0)));
        response.Content.ReadAsStream().CopyTo(buffered);
        LastBytes = (body.Length, buffered.Length);
        buffered.Position = 0;
        using var reader = AsmxSoap.Reader(buffered);
        AsmxSoap.MoveToBodyContent(reader);
        if (reader.LocalName == "Fault" && reader.NamespaceURI == AsmxSoap.SoapNamespace)
        {
            throw new AsmxFaultException(ReadFaultString(reader));
        }

        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException($"HTTP {(int)response.StatusCode} from {address}", null, response.StatusCode);
        }

        reader.ReadStartElement(operation + "Response", AsmxSoap.ServiceNamespace);
        reader.MoveToContent();
        if (reader.LocalName != resultElement)
        {
            throw new XmlException($"Expected <{resultElement}>, found <{reader.LocalName}>.");
        }

        return read(reader);
    }

    private static string ReadFaultString(XmlReader reader)
    {
        while (reader.Read())
        {
            if (reader.NodeType == XmlNodeType.Element && reader.LocalName == "faultstring")
            {
                return reader.ReadElementContentAsString();
            }
        }

        return "SOAP fault without a faultstring";
    }

    public void Dispose() => http.Dispose();
}
