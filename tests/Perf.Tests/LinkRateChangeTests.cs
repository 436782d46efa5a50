using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Surrogate.Perf.Harness.Compression;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Tests;

/// <summary>
/// A mid-run rate change keeps the link moving. tbf cannot send a queued packet longer than its bucket and
/// <c>tc qdisc change</c> keeps the queue, so an offload packet queued under the fast rate's bucket blocked that end
/// of the link forever once the bucket shrank (the grid's 5-minute reply timeouts on 100mbit->1.5mbit). As root: a
/// sender in the server's namespace whose every packet is one such offload packet keeps delivering in every slow
/// phase of repeated changes; without root the harness's check names root.
/// </summary>
[Collection(LinkRunCollection.Name)]
public sealed class LinkRateChangeTests
{
    // UDP segmentation offload: each 5,600-byte send leaves as one packet of four 1,400-byte segments (about 5.8 KB:
    // within 100 Mbit/s's 6,250-byte bucket, beyond 1.5 Mbit/s's own 3,028), faster than 100 Mbit/s, so the queue is
    // full of them when the rate changes.
    private const string Sender = """
        import socket, sys, time
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.IPPROTO_UDP, 103, 1400)  # UDP_SEGMENT
        block = b"x" * 5600
        end = time.time() + float(sys.argv[3])
        while time.time() < end:
            try:
                s.sendto(block, (sys.argv[1], int(sys.argv[2])))
            except OSError:
                pass  # the queue is full: the send is dropped, as on a real link
            time.sleep(0.0001)
        """;

    [Fact]
    public void Both_rates_of_a_change_share_the_larger_bucket()
    {
        RateChange change = RateChange.Parse("100mbit->1.5mbit@10s", null);
        Assert.Equal(BenchLink.SmallBurst(100_000_000), change.From.BurstBytes);
        Assert.Equal(change.From.BurstBytes, change.To.BurstBytes);

        RateChange up = RateChange.Parse("1.5mbit->100mbit@10s", null);
        Assert.Equal(BenchLink.SmallBurst(100_000_000), up.From.BurstBytes);
        Assert.Equal(up.From.BurstBytes, up.To.BurstBytes);

        Assert.Equal(4000, RateChange.Parse("100mbit->1.5mbit@10s", 4000).To.BurstBytes);
    }

    [Fact]
    public async Task Offload_packets_keep_moving_through_repeated_rate_changes_or_the_harness_names_root()
    {
        RateChange change = RateChange.Parse("100mbit->1.5mbit@10s", null);
        if (!Environment.IsPrivilegedProcess)
        {
            Assert.Contains("root", NetworkLink.Missing(), StringComparison.Ordinal);
            return;
        }

        using NetworkLink link = NetworkLink.Create(change.From);
        Assert.Throws<ArgumentException>(() => link.ChangeRate(change.To with { Burst = change.To.BurstBytes - 1 }));

        using var receiver = new UdpClient(new IPEndPoint(link.ClientAddress, 0));
        int port = ((IPEndPoint)receiver.Client.LocalEndPoint!).Port;
        const int Phases = 6;
        const double PhaseSeconds = 1.5;
        using Process sender = StartSender(link, port, (Phases * PhaseSeconds) + 2);
        long received = 0;
        using var stop = new CancellationTokenSource();
        Task reader = Task.Run(async () =>
        {
            try
            {
                while (true)
                {
                    UdpReceiveResult datagram = await receiver.ReceiveAsync(stop.Token);
                    Interlocked.Add(ref received, datagram.Buffer.Length);
                }
            }
            catch (OperationCanceledException)
            {
            }
        });

        // Fast and slow phases in turn; each slow phase must deliver at least a fifth of what 1.5 Mbit/s carries in its
        // last second (a blocked queue delivers nothing).
        var slowBytes = new List<long>();
        for (int phase = 0; phase < Phases; phase++)
        {
            bool slow = phase % 2 == 1;
            link.ChangeRate(slow ? change.To : change.From);
            await Task.Delay(TimeSpan.FromSeconds(PhaseSeconds - 1));
            long before = Interlocked.Read(ref received);
            await Task.Delay(TimeSpan.FromSeconds(1));
            if (slow)
            {
                slowBytes.Add(Interlocked.Read(ref received) - before);
            }
        }

        sender.Kill(entireProcessTree: true);
        await stop.CancelAsync();
        await reader;
        long floor = change.To.BitsPerSecond / 8 / 5;
        Assert.True(slowBytes.TrueForAll(b => b >= floor), string.Create(CultureInfo.InvariantCulture,
            $"bytes delivered in the last second of each 1.5 Mbit/s phase: {string.Join(", ", slowBytes)} (at least {floor} each)"));
    }

    private static Process StartSender(NetworkLink link, int port, double seconds)
    {
        var info = new ProcessStartInfo(link.ExecPrefix[0]) { UseShellExecute = false };
        foreach (string part in link.ExecPrefix.Skip(1).Concat(["python3", "-c", Sender, link.ClientAddress.ToString(),
            port.ToString(CultureInfo.InvariantCulture), seconds.ToString(CultureInfo.InvariantCulture)]))
        {
            info.ArgumentList.Add(part);
        }

        return Process.Start(info) ?? throw new InvalidOperationException("python3 did not start in the server's namespace.");
    }
}
