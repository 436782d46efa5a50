using System.Diagnostics;
using Surrogate.Compression.Framing;
using Surrogate.Compression.Policies;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// A service on an injected clock that reads each connection through one session encoder and writes its replies
/// through another (as CoreWCF's net.tcp does), answering closed-loop clients over one shaped link: each request
/// reaches the service, which works <see cref="WorkSeconds"/> (serially) and compresses (its cores share the codec
/// time: the clock moves by codec time ÷ <see cref="Cores"/>); the replies queue on the link (FIFO); a client reads its
/// reply in <see cref="ReadSeconds"/>, waits <see cref="ThinkSeconds"/> and sends its next request (200 bytes). The service reads a request
/// when it arrives and answers the requests it has read in order (its own work queues them, not the link). With
/// <see cref="BucketBytes"/> the link is a token bucket (as tc's tbf shapes the benchmark's links) instead of a wire
/// that sends one byte after another: a reply leaves at once while the bucket holds its bytes, tokens come back at the
/// link's rate while the service works and the client reads, and a reply the bucket cannot cover waits for the rest.
/// </summary>
internal sealed record ClosedLoopService
{
    public int Clients { get; init; } = 4;

    public double LinkBitsPerSecond { get; init; } = 100e6;

    public long Length { get; init; } = 199_000;

    public double ThinkSeconds { get; init; }

    public double WorkSeconds { get; init; }

    public int Cores { get; init; } = 1;

    /// <summary>The time a client takes to read its reply.</summary>
    public double ReadSeconds { get; init; } = 0.001;

    /// <summary>The token bucket's depth in bytes; 0 for a wire that sends at the link rate.</summary>
    public double BucketBytes { get; init; }

    /// <summary>Whether a reply is timed on the clock of the request it answers (false: CoreWCF before the fix).</summary>
    public bool Paired { get; init; } = true;

    /// <summary>The service process's CPU use, as the policy's CPU monitor sees it.</summary>
    public double Utilization { get; init; } = 0.05;

    public CompressionGoal Goal { get; init; } = CompressionGoal.Auto;

    public Func<CompressionCodec, int, CodecBehaviour> Behaviour { get; init; } = PolicyWorld.SoapLike;

    /// <summary>Runs 60 s of simulated time; the choices of the last 20 s.</summary>
    public Result Run()
    {
        double rate = LinkBitsPerSecond / 8;
        var env = new FakeEnvironment { Utilization = Utilization, ProcessorCount = Cores };
        AdaptivePolicy policy = PolicyWorld.Adaptive(env, 1e9, measureLink: true, goal: Goal);
        var world = new PolicyWorld(policy, env, Behaviour);
        RoundTripClock[] readers = [.. Enumerable.Range(0, Clients).Select(_ => policy.CreateClock()!)];
        RoundTripClock[] writers = [.. Enumerable.Range(0, Clients).Select(_ => policy.CreateClock()!)];
        double start = Seconds(env);
        double[] arrives = [.. Enumerable.Range(0, Clients).Select(i => start + (i * 0.001))];
        var waiting = new Queue<(int Client, double Arrived, Dictionary<string, object> Request)>();
        double serverFree = start;
        double linkFree = start;
        double tokens = BucketBytes;
        double tokensAt = start;
        var late = new List<CompressionChoice>();
        while (true)
        {
            // The next event: a request arrives (the service reads it at once, as a connection's pump does), or the
            // service has done its work on the oldest request it has read and answers it.
            int client = Array.IndexOf(arrives, arrives.Min());
            double answerAt = waiting.Count > 0 ? Math.Max(serverFree, waiting.Peek().Arrived) + WorkSeconds : double.PositiveInfinity;
            if (arrives[client] < answerAt)
            {
                if (arrives[client] - start > 60)
                {
                    break;
                }

                env.Advance(Math.Max(0, arrives[client] - Seconds(env)));
                readers[client].Received(211, 200);
                var read = new Dictionary<string, object>();
                readers[client].Tag(read);
                waiting.Enqueue((client, arrives[client], read));
                arrives[client] = double.PositiveInfinity;
                continue;
            }

            (int answered, _, Dictionary<string, object> request) = waiting.Dequeue();
            env.Advance(Math.Max(0, answerAt - Seconds(env)));
            CompressionChoice choice = policy.Choose(world.Action, world.Sample, Length);
            CompressionOutcome outcome = world.Outcome(choice, Length);
            env.Advance(outcome.ElapsedTicks / (double)Stopwatch.Frequency / Cores);
            serverFree = Seconds(env);
            policy.Sent(choice, outcome);
            RoundTripClock.ForReply(writers[answered], Paired ? request : null)!.Sent(outcome.WireLength, Length, PolicyWorld.AsSent(choice, outcome));
            if (serverFree - start > 40)
            {
                late.Add(choice);
            }

            double sent = Math.Max(serverFree, linkFree);
            if (BucketBytes > 0)
            {
                // Tokens build up until the reply is handed over; what they do not cover leaves at the link's rate.
                tokens = Math.Min(BucketBytes, tokens + ((sent - tokensAt) * rate));
                double wait = Math.Max(0, (outcome.WireLength - tokens) / rate);
                (tokens, tokensAt, linkFree) = (Math.Max(0, tokens - outcome.WireLength), sent + wait, sent + wait);
            }
            else
            {
                linkFree = sent + (outcome.WireLength / rate);
            }

            arrives[answered] = linkFree + ReadSeconds + ThinkSeconds + (200 / rate);
        }

        double estimate = policy.Link.Estimate(env.Timestamp, out string source);
        return new Result(estimate, source, policy.Link.InFlight, late);
    }

    /// <summary>
    /// One client's steady time per call with every reply at <paramref name="arm"/>: the rest of the call (the
    /// service's work and codec, the client's reading and thinking and its request) and the reply's wire time after
    /// it on a wire; in a bucket, the wait for what the tokens that came back during the rest do not cover.
    /// </summary>
    public double OneClientCycle(Arm arm)
    {
        double rate = LinkBitsPerSecond / 8;
        (double wire, double codec) = arm.Codec is { } c
            ? ((Length * Behaviour(c, arm.Level).Ratio) + 15, Length * Behaviour(c, arm.Level).SecondsPerByte / Cores)
            : (Length + 11, 0);
        double rest = WorkSeconds + codec + ReadSeconds + ThinkSeconds + (200 / rate);
        return BucketBytes > 0 ? rest + (Math.Max(0, wire - Math.Min(BucketBytes, rest * rate)) / rate) : rest + (wire / rate);
    }

    /// <summary>The step of the default ladder with the shortest <see cref="OneClientCycle"/>, by name.</summary>
    public string OneClientFastest()
    {
        Arm fastest = ArmLadder.Build(CompressionOptions.Adaptive.AdaptiveCodecs).MinBy(OneClientCycle)!;
        return PolicyWorld.Name(fastest.Codec, fastest.Level);
    }

    private static double Seconds(FakeEnvironment env) => env.Timestamp / (double)Stopwatch.Frequency;

    /// <summary>The service's link estimate and its source, the calls in flight it measured, and its last 20 s of choices.</summary>
    public sealed record Result(double Estimate, string Source, double InFlight, List<CompressionChoice> LateChoices)
    {
        /// <summary>The names of the model's own choices (not exploration) of the last 20 s.</summary>
        public IEnumerable<string> ModelChoices =>
            LateChoices.Where(c => c.Reason == CompressionDecisionReason.Model).Select(c => PolicyWorld.Name(c));

        public string Summary() =>
            $"link {Estimate * 8 / 1e6:F2} Mbit/s ({Source}), {InFlight:F2} calls in flight; last 20 s: " +
            string.Join(", ", LateChoices.GroupBy(c => $"{PolicyWorld.Name(c)} {c.Goal?.ToString().ToLowerInvariant()}").OrderByDescending(g => g.Count()).Select(g => $"{g.Key} {g.Count()}"));
    }
}
