using System.Diagnostics;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;
using Xunit.Abstractions;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// A service that reads each connection through one session encoder and writes its replies through another, as
/// CoreWCF's net.tcp does, with 4 closed-loop clients sharing one shaped link (the benchmark's Part 4 cells), on an
/// injected clock: the replay of what the benchmark showed (the service's link estimate stayed at the 1 Gbit/s prior,
/// so it sent raw or LZ4 on 100 Mbit/s and 1.5 Mbit/s) and of the fix (a reply is timed on the clock of the request it
/// answers).
/// </summary>
public sealed class SplitSessionTests(ITestOutputHelper output)
{
    private const int Clients = 4;

    public static TheoryData<double, long> Links() => new()
    {
        { 1.5e6, 19_500 },    // orders 100
        { 1.5e6, 199_000 },   // orders 1000
        { 100e6, 199_000 },
        { 100e6, 107_800 },   // the DataSet surrogate of 1,000 orders
    };

    [Theory]
    [MemberData(nameof(Links))]
    public void Replies_timed_on_the_requests_clock_measure_the_shared_link_and_compress(double bitsPerSecond, long length)
    {
        Service service = Run(bitsPerSecond, length, paired: true);
        output.WriteLine(service.Summary());
        Assert.NotEqual("prior", service.Source);
        // Four sessions share the link: one session's round trips see a quarter of it, the bytes sent per second all of it.
        Assert.InRange(service.Estimate / (bitsPerSecond / 8), 0.5, 1.1);
        // The model's choices (exploration tries the neighbours) compress with zstd, as the true figures call for.
        Assert.True(service.LateChoices.Where(c => c.Model).All(c => c.Name.StartsWith("zstd-", StringComparison.Ordinal)), service.Summary());
    }

    [Theory]
    [MemberData(nameof(Links))]
    public void Replies_timed_on_the_writing_encoders_own_clock_never_measure_a_round_trip(double bitsPerSecond, long length)
    {
        // What the service did before: the writing encoder's clock never sees a receive, the reading one's never a send.
        Service service = Run(bitsPerSecond, length, paired: false);
        output.WriteLine(service.Summary());
        Assert.Equal("prior", service.Source);
        Assert.Equal(125e6, service.Estimate);
    }

    /// <summary>
    /// 4 clients in a closed loop: each request reaches the service, which answers through its writing encoder; the
    /// replies queue on one link (FIFO at <paramref name="bitsPerSecond"/>); a client reads its reply in 1 ms and sends
    /// its next request (200 bytes). 60 s of simulated time.
    /// </summary>
    private static Service Run(double bitsPerSecond, long length, bool paired)
    {
        double rate = bitsPerSecond / 8;
        var env = new FakeEnvironment { Utilization = 0.05 };
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1e9, measureLink: true, goal: CompressionGoal.Auto);
        var world = new PolicyWorld(policy, env);
        RoundTripClock[] readers = [.. Enumerable.Range(0, Clients).Select(_ => policy.CreateClock()!)];
        RoundTripClock[] writers = [.. Enumerable.Range(0, Clients).Select(_ => policy.CreateClock()!)];
        double start = Seconds(env);
        double[] arrives = [.. Enumerable.Range(0, Clients).Select(i => start + (i * 0.001))];
        double linkFree = start;
        var late = new List<(string Name, bool Model)>();
        while (true)
        {
            int client = Array.IndexOf(arrives, arrives.Min());
            if (arrives[client] - start > 60)
            {
                break;
            }

            env.Advance(Math.Max(0, arrives[client] - Seconds(env)));
            readers[client].Received(211, 200);
            var request = new Dictionary<string, object>();
            readers[client].Tag(request);

            CompressionChoice choice = policy.Choose(world.Action, world.Sample, length);
            CompressionOutcome outcome = world.Outcome(choice, length);
            env.Advance(outcome.ElapsedTicks / (double)Stopwatch.Frequency);
            policy.Sent(choice, outcome);
            RoundTripClock.ForReply(writers[client], paired ? request : null)!.Sent(outcome.WireLength, length);
            if (arrives[client] - start > 40)
            {
                late.Add((PolicyWorld.Name(choice), choice.Reason == CompressionDecisionReason.Model));
            }

            double sent = Math.Max(Seconds(env), linkFree);
            linkFree = sent + (outcome.WireLength / rate);
            arrives[client] = linkFree + 0.001 + (200 / rate);
        }

        double estimate = policy.Link.Estimate(env.Timestamp, out string source);
        return new Service(estimate, source, late);
    }

    private static double Seconds(FakeEnvironment env) => env.Timestamp / (double)Stopwatch.Frequency;

    private sealed record Service(double Estimate, string Source, List<(string Name, bool Model)> LateChoices)
    {
        public string Summary() =>
            $"link {Estimate * 8 / 1e6:F2} Mbit/s ({Source}); last 20 s: " +
            string.Join(", ", LateChoices.GroupBy(c => c.Name).OrderByDescending(g => g.Count()).Select(g => $"{g.Key} {g.Count()}"));
    }
}
