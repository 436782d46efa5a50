using System.Diagnostics;
using System.Globalization;
using System.Net;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// A shaped link for <c>--link</c>: a network namespace for the server and a veth pair between it and the driver's
/// namespace, both ends shaped with TBF (egress only, so shaping both ends shapes both directions). Names carry the
/// driver's pid so parallel runs do not collide, and each run takes a /30 of 10.77.0.0/16 that no interface here uses
/// yet. <see cref="Dispose"/> removes it all, and so does SIGINT, SIGTERM or SIGHUP while it exists.
/// </summary>
public sealed class NetworkLink : IDisposable
{
    public const string Method = "tbf on veth between network namespaces";

    private const string LatencyLimit = "50ms";

    private readonly string ip;
    private TerminationSignals? signals;
    private int disposed;
    private long largestBurst;

    private NetworkLink(string ip, LinkRate rate, int pid)
    {
        this.ip = ip;
        Rate = rate;
        largestBurst = rate.BurstBytes;
        Namespace = "dss-" + pid.ToString(CultureInfo.InvariantCulture);
        HostInterface = "dssh" + pid.ToString(CultureInfo.InvariantCulture);
        ServerInterface = "dsss" + pid.ToString(CultureInfo.InvariantCulture);
    }

    public LinkRate Rate { get; }

    /// <summary>The server's namespace, e.g. <c>dss-4242</c>.</summary>
    public string Namespace { get; }

    /// <summary>The veth end left in the driver's namespace (the client's side).</summary>
    public string HostInterface { get; }

    /// <summary>The veth end inside <see cref="Namespace"/> (the server's side).</summary>
    public string ServerInterface { get; }

    public IPAddress ClientAddress { get; private set; } = IPAddress.None;

    public IPAddress ServerAddress { get; private set; } = IPAddress.None;

    /// <summary>The command prefix that starts a process inside the server's namespace.</summary>
    public IReadOnlyList<string> ExecPrefix => [ip, "netns", "exec", Namespace];

    /// <summary>What is missing for <c>--link</c> (root, ip, tc), in one line, or null when nothing is.</summary>
    public static string? Missing()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "--link needs Linux (network namespaces, veth and tc).";
        }

        if (!Environment.IsPrivilegedProcess)
        {
            return "--link needs root (it creates a network namespace, a veth pair and tc qdiscs); run the harness as root.";
        }

        string[] missing = [.. new[] { "ip", "tc" }.Where(tool => Tool(tool) is null)];
        return missing.Length == 0 ? null : $"--link needs iproute2: '{string.Join("' and '", missing)}' not found (install the iproute2 package).";
    }

    /// <summary>
    /// Creates the namespace, the veth pair and both qdiscs (after removing leftovers of a crashed run with the same
    /// names). Throws <see cref="InvalidOperationException"/> naming the step that failed; nothing is left behind then.
    /// </summary>
    public static NetworkLink Create(LinkRate rate)
    {
        var link = new NetworkLink(Tool("ip")!, rate, Environment.ProcessId);
        string tc = Tool("tc")!;
        link.RemoveAll();
        link.signals = TerminationSignals.Register(link.Dispose);

        try
        {
            (link.ClientAddress, link.ServerAddress) = link.FreeSubnet();
            string ns = link.Namespace, host = link.HostInterface, server = link.ServerInterface;
            link.Ip("netns", "add", ns);
            link.Ip("link", "add", host, "type", "veth", "peer", "name", server, "netns", ns);
            link.Ip("addr", "add", link.ClientAddress + "/30", "dev", host);
            link.Ip("-n", ns, "addr", "add", link.ServerAddress + "/30", "dev", server);
            link.Ip("link", "set", host, "up");
            link.Ip("-n", ns, "link", "set", server, "up");
            link.Ip("-n", ns, "link", "set", "lo", "up");
            string[] Tbf(string device) => ["qdisc", "replace", "dev", device, "root", "tbf", "rate", rate.TcRate,
                "burst", rate.BurstBytes.ToString(CultureInfo.InvariantCulture), "latency", LatencyLimit];
            Run(tc, Tbf(host));
            Run(link.ip, ["netns", "exec", ns, tc, .. Tbf(server)]);
            return link;
        }
        catch
        {
            link.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Changes the tbf rate and burst of both ends in place (<c>tc qdisc change</c>), keeping the connections open. The
    /// burst never shrinks below one the link has had: the change keeps the queue, and tbf never sends a queued
    /// packet longer than its bucket, so an offload packet queued under a larger bucket would block that end for good.
    /// </summary>
    public void ChangeRate(LinkRate rate)
    {
        if (rate.BurstBytes < largestBurst)
        {
            throw new ArgumentException(string.Create(CultureInfo.InvariantCulture,
                $"A burst of {rate.BurstBytes} bytes is smaller than the {largestBurst} this link has had: a packet queued under the larger bucket would never leave."), nameof(rate));
        }

        largestBurst = rate.BurstBytes;
        string tc = Tool("tc")!;
        string[] Tbf(string device) => ["qdisc", "change", "dev", device, "root", "tbf", "rate", rate.TcRate,
            "burst", rate.BurstBytes.ToString(CultureInfo.InvariantCulture), "latency", LatencyLimit];
        Run(tc, Tbf(HostInterface));
        Run(ip, ["netns", "exec", Namespace, tc, .. Tbf(ServerInterface)]);
    }

    /// <summary>One line for the reports: rate, method, both directions, burst, addresses.</summary>
    public string Describe() =>
        $"{Rate.Describe()} each way, {Method} (both directions shaped: tbf on each veth end, burst {Rate.BurstBytes} bytes, " +
        $"latency {LatencyLimit}, no added delay); server in namespace {Namespace} at {ServerAddress}, client at {ClientAddress}";

    /// <summary>The link as results.json records it.</summary>
    public LinkSettings Settings() => new(Rate.Text, Rate.BitsPerSecond, Rate.BurstBytes, Method,
        "both (tbf on each veth end's egress)", ClientAddress.ToString(), ServerAddress.ToString());

    /// <summary>The qdisc counters of both ends (sent, dropped, overlimits), for the console after the run.</summary>
    public string Statistics()
    {
        string tc = Tool("tc")!;
        return "client side: " + Run(tc, ["-s", "qdisc", "show", "dev", HostInterface]).Trim() + Environment.NewLine +
            "server side: " + Run(ip, ["netns", "exec", Namespace, tc, "-s", "qdisc", "show", "dev", ServerInterface]).Trim();
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref disposed, 1) == 0)
        {
            signals?.Dispose();
            RemoveAll();
        }
    }

    /// <summary>Deletes the root-side veth (its peer goes with it) and the namespace, whichever exist.</summary>
    private void RemoveAll()
    {
        TryRun(ip, ["link", "del", HostInterface]);
        TryRun(ip, ["netns", "del", Namespace]);
    }

    /// <summary>A /30 of 10.77.0.0/16, starting from one picked by the pid, that no local IPv4 address falls into.</summary>
    private (IPAddress Client, IPAddress Server) FreeSubnet()
    {
        var used = Run(ip, ["-o", "-4", "addr", "show"])
            .Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries).SkipWhile(w => w != "inet").Skip(1).FirstOrDefault())
            .Where(cidr => cidr is not null && cidr.StartsWith("10.77.", StringComparison.Ordinal))
            .Select(cidr => IPAddress.Parse(cidr!.Split('/')[0]).GetAddressBytes())
            .Select(b => (b[2] << 6) | (b[3] >> 2))
            .ToHashSet();
        for (int i = 0; i < 16384; i++)
        {
            int subnet = (Environment.ProcessId + i) % 16384;
            if (!used.Contains(subnet))
            {
                byte third = (byte)(subnet >> 6), fourth = (byte)((subnet & 63) << 2);
                return (new IPAddress([10, 77, third, (byte)(fourth + 1)]), new IPAddress([10, 77, third, (byte)(fourth + 2)]));
            }
        }

        throw new InvalidOperationException("No free /30 left in 10.77.0.0/16.");
    }

    private void Ip(params string[] args) => Run(ip, args);

    private static string Run(string file, IReadOnlyList<string> args)
    {
        var (code, output, error) = Exec(file, args);
        return code == 0
            ? output
            : throw new InvalidOperationException($"'{Path.GetFileName(file)} {string.Join(' ', args)}' failed (exit {code}): {error.Trim()}");
    }

    private static void TryRun(string file, IReadOnlyList<string> args) => Exec(file, args);

    private static (int Code, string Output, string Error) Exec(string file, IReadOnlyList<string> args)
    {
        var info = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        using var process = Process.Start(info) ?? throw new InvalidOperationException($"Could not start {file}.");
        var error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output, error.Result);
    }

    private static string? Tool(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Concat(["/usr/sbin", "/sbin", "/usr/bin", "/bin"])
            .Select(dir => Path.Combine(dir, name))
            .FirstOrDefault(File.Exists);
}
