using System.Diagnostics;
using Surrogate.StandInHost;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The shop service (large-quota net.tcp endpoint) in a child process, so a test can kill the server mid-call.
/// The child is this test assembly run as a program (<c>dotnet ServiceModel.Tests.dll serve-shop</c>): it prints its
/// endpoint address and serves until its standard input closes.
/// </summary>
public sealed class ShopHostProcess : IDisposable
{
    private readonly Process _process;

    private ShopHostProcess(Process process, Uri address) => (_process, Address) = (process, address);

    public Uri Address { get; }

    public bool HasExited => _process.HasExited;

    public static async Task<ShopHostProcess> StartAsync()
    {
        var info = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add(typeof(ShopHostProcess).Assembly.Location);
        info.ArgumentList.Add("serve-shop");
        var process = Process.Start(info) ?? throw new InvalidOperationException("could not start the host process");
        var line = await process.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(60));
        return new ShopHostProcess(process, new Uri(line ?? throw new InvalidOperationException("the host process printed no address")));
    }

    /// <summary>Kills the server at once, as a crash or an OOM kill would: its sockets close mid-message.</summary>
    public void Kill()
    {
        _process.Kill(entireProcessTree: true);
        _process.WaitForExit();
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
    }

    /// <summary>The child's entry point (the test SDK's generated one is turned off in the project).</summary>
    public static async Task<int> Main(string[] args)
    {
        if (args is not ["serve-shop"])
        {
            await Console.Error.WriteLineAsync("usage: ServiceModel.Tests serve-shop");
            return 2;
        }

        await using var host = await SoapServiceHost.StartAsync(b => b
            .AddService<IShop>(new ShopService())
            .AddNetTcpEndpoint<IShop>(ShopHost.NewLarge, new NetTcpShopHost().CreateBinding(large: true)));
        Console.WriteLine(host.GetEndpointAddress(ShopHost.NewLarge));
        await Console.In.ReadToEndAsync();
        return 0;
    }
}
