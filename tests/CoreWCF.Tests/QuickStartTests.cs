using System.Data;
using System.Net;
using System.Net.Sockets;
using System.ServiceModel;
using System.Text.RegularExpressions;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Surrogate.CoreWCF;
using Surrogate.ServiceModel;
using Surrogate.Tests;
using Xunit;

// Outside the Surrogate namespaces, as in an application: there "CoreWCF." names the CoreWCF packages' namespace.
namespace QuickStart;

/// <summary>
/// README's quick start, compiled and run: the code between the markers below is README's C# block under
/// "## Quick start", except that the test serves on a free port where README writes 8808 (<c>port</c> here), so a
/// run does not collide with anything else on the machine. A second test compares the two texts.
/// </summary>
public sealed partial class QuickStartTests
{
    private const string ReadmePort = "8808";

    [Fact]
    public async Task The_readme_quick_start_serves_and_calls()
    {
        int port = FreePort();

        // README quick start: begin
        var builder = WebApplication.CreateBuilder();
        builder.WebHost.UseNetTcp(IPAddress.Loopback, port);
        builder.Services.AddServiceModelServices().AddDataSetSurrogate();   // the one line for the attribute
        var app = builder.Build();
        app.UseServiceModel(b => b.AddService<OrdersService>()
            .AddServiceEndpoint<OrdersService, IOrders>(new CoreWCF.NetTcpBinding(CoreWCF.SecurityMode.None), "/orders"));
        await app.StartAsync();

        var binding = SurrogateBindings.WithConnectionBufferSize(new NetTcpBinding(SecurityMode.None)); // 64 KB buffers
        var factory = new ChannelFactory<IOrders>(binding, new EndpointAddress($"net.tcp://127.0.0.1:{port}/orders"));
        DataSet orders = await factory.CreateChannel().GetOrdersAsync(42);
        // README quick start: end

        Assert.Equal(42, orders.Tables[0].Rows[0][0]);
        factory.Abort();
        await app.StopAsync();
    }

    [Fact]
    public void The_readme_shows_the_code_this_test_runs()
    {
        // The markers are whole lines (a line break after them): these literals are not.
        string test = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "tests", "CoreWCF.Tests", "QuickStartTests.cs")).ReplaceLineEndings("\n");
        string contract = Between(test, "// README quick start (contract): begin\n", "// README quick start (contract): end\n");
        string body = Between(test, "// README quick start: begin\n", "// README quick start: end\n");
        string expected = Dedent(contract) + "\n\n" + Dedent(WithReadmePort(body));

        string readme = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "README.md")).ReplaceLineEndings("\n");
        string quickStart = Between(readme, "## Quick start", "\n## ");
        string shown = Between(quickStart, "```csharp\n", "```");

        Assert.Equal(expected, shown.TrimEnd('\n'));
    }

    /// <summary>The test's lines as README writes them: <c>port</c> as 8808, inside interpolated strings too.</summary>
    private static string WithReadmePort(string code) =>
        PortWord().Replace(InterpolatedPort().Replace(code, m => "\"" + m.Groups[1].Value + ReadmePort + m.Groups[2].Value + "\""), ReadmePort);

    private static string Between(string text, string begin, string end)
    {
        int start = text.IndexOf(begin, StringComparison.Ordinal);
        Assert.True(start >= 0, $"'{begin}' not found");
        start += begin.Length;
        int stop = text.IndexOf(end, start, StringComparison.Ordinal);
        Assert.True(stop >= 0, $"'{end}' not found after '{begin}'");
        return text[start..stop];
    }

    /// <summary>The lines of <paramref name="code"/> without the indentation they share, trimmed of blank lines at both ends.</summary>
    private static string Dedent(string code)
    {
        string[] lines = code.ReplaceLineEndings("\n").Split('\n')
            .SkipWhile(string.IsNullOrWhiteSpace).Reverse().SkipWhile(string.IsNullOrWhiteSpace).Reverse().ToArray();
        int indent = lines.Where(l => l.Trim().Length > 0).Min(l => l.Length - l.TrimStart(' ').Length);
        return string.Join('\n', lines.Select(l => l.Length >= indent ? l[indent..].TrimEnd() : l.Trim()));
    }

    private static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    [GeneratedRegex(@"\$""([^""{]*)\{port\}([^""]*)""")]
    private static partial Regex InterpolatedPort();

    [GeneratedRegex(@"\bport\b")]
    private static partial Regex PortWord();
}

// README quick start (contract): begin
[ServiceContract, DataSetSurrogate]              // System.ServiceModel's attributes; Surrogate.ServiceModel
public interface IOrders { [OperationContract] Task<DataSet> GetOrdersAsync(int customer); }
// README quick start (contract): end

public sealed class OrdersService : IOrders
{
    public Task<DataSet> GetOrdersAsync(int customer)
    {
        var orders = new DataSet("Orders");
        orders.Tables.Add("Order").Columns.Add("Customer", typeof(int));
        orders.Tables[0].Rows.Add(customer);
        return Task.FromResult(orders);
    }
}
