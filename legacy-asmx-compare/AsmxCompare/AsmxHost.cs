using System.Collections.Concurrent;
using System.Data;
using System.Globalization;
using System.Net;
using System.Xml;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Surrogate.Perf.Scenarios;

namespace Surrogate.AsmxCompare;

/// <summary>
/// An ASMX-style SOAP 1.1 service on Kestrel (127.0.0.1 unless told otherwise, a free port): operations GetDataSet(scenario),
/// EchoDataSet(ds) and GetObjects(count), each request read with an <see cref="XmlTextReader"/> as ASMX did.
/// </summary>
public sealed class AsmxHost : IAsyncDisposable
{
    public const string Path = "/DataSetService.asmx";

    private readonly WebApplication app;
    private readonly ConcurrentDictionary<string, DataSet> scenarios = new(StringComparer.Ordinal);

    private AsmxHost(WebApplication app, Uri address)
    {
        this.app = app;
        Address = address;
    }

    /// <summary>The service address, e.g. http://127.0.0.1:43123/DataSetService.asmx.</summary>
    public Uri Address { get; }

    /// <summary>Starts the service on 127.0.0.1 (port 0 picks a free port).</summary>
    public static Task<AsmxHost> StartAsync(int port = 0, CancellationToken cancellationToken = default) =>
        StartAsync(IPAddress.Loopback, port, cancellationToken);

    /// <summary>Starts the service on the local <paramref name="address"/> (port 0 picks a free port).</summary>
    public static async Task<AsmxHost> StartAsync(IPAddress address, int port = 0, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(address);
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k =>
        {
            k.Listen(address, port);
            k.AllowSynchronousIO = false;
            k.Limits.MaxRequestBodySize = null;
        });
        var app = builder.Build();
        AsmxHost? host = null;
        app.MapPost(Path, context => host!.HandleAsync(context));
        await app.StartAsync(cancellationToken).ConfigureAwait(false);
        var bound = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        host = new AsmxHost(app, new Uri(new Uri(bound), Path));
        return host;
    }

    /// <summary>Builds the scenario's DataSet now, so no call pays for building it.</summary>
    public void Preload(string scenario) => Scenario(scenario);

    private DataSet Scenario(string name) => scenarios.GetOrAdd(name, static n => ScenarioCatalog.Create(n));

    private async Task HandleAsync(HttpContext context)
    {
        // ASMX buffered the request and parsed it synchronously with an XmlTextReader.
        using var request = new MemoryStream(checked((int)(context.Request.ContentLength ?? 0)));
        await context.Request.Body.CopyToAsync(request, context.RequestAborted).ConfigureAwait(false);
        request.Position = 0;
        byte[] response;
        try
        {
            response = Dispatch(request);
            context.Response.StatusCode = StatusCodes.Status200OK;
        }
        catch (Exception ex) when (ex is XmlException or InvalidOperationException or ArgumentException or FormatException or KeyNotFoundException or DataException)
        {
            response = AsmxSoap.Fault(ex.Message);
            context.Response.StatusCode = StatusCodes.Status500InternalServerError;
        }

        context.Response.ContentType = AsmxSoap.ContentType;
        context.Response.ContentLength = response.Length;
        await context.Response.Body.WriteAsync(response, context.RequestAborted).ConfigureAwait(false);
    }

    private byte[] Dispatch(Stream request)
    {
        using var reader = AsmxSoap.Reader(request);
        AsmxSoap.MoveToBodyContent(reader);
        if (reader.NamespaceURI != AsmxSoap.ServiceNamespace)
        {
            throw new InvalidOperationException($"Unknown operation {{{reader.NamespaceURI}}}{reader.LocalName}.");
        }

        switch (reader.LocalName)
        {
            case "GetDataSet":
            {
                reader.ReadStartElement();
                var name = reader.ReadElementString("scenario", AsmxSoap.ServiceNamespace);
                if (!ScenarioCatalog.Names.Contains(name))
                {
                    throw new ArgumentException($"Unknown scenario '{name}'.");
                }

                var dataSet = Scenario(name);
                return AsmxSoap.Envelope("GetDataSetResponse", w => AsmxSoap.WriteDataSet(w, "GetDataSetResult", dataSet));
            }

            case "EchoDataSet":
            {
                reader.ReadStartElement();
                reader.MoveToContent();
                var dataSet = AsmxSoap.ReadDataSet(reader);
                return AsmxSoap.Envelope("EchoDataSetResponse", w => AsmxSoap.WriteDataSet(w, "EchoDataSetResult", dataSet));
            }

            case "GetObjects":
            {
                reader.ReadStartElement();
                var count = int.Parse(reader.ReadElementString("count", AsmxSoap.ServiceNamespace), CultureInfo.InvariantCulture);
                if (count is < 0 or > 1_000_000)
                {
                    throw new ArgumentException($"count {count} is out of range.");
                }

                var objects = ScenarioCatalog.Objects(count);
                return AsmxSoap.Envelope("GetObjectsResponse", w => AsmxSoap.WriteObjects(w, objects));
            }

            default:
                throw new InvalidOperationException($"Unknown operation '{reader.LocalName}'.");
        }
    }

    public async ValueTask DisposeAsync()
    {
        await app.StopAsync().ConfigureAwait(false);
        await app.DisposeAsync().ConfigureAwait(false);
    }
}
