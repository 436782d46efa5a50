using System.Diagnostics;
using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Policies;

/// <summary>
/// Chooses raw or a codec and level per message with the model of docs/compression.md ("The adaptive encoder"): for
/// each step of the ladder, the time per message at the bottleneck (throughput: CPU time over cores and wire bytes
/// over the link rate, two stations in series, <see cref="Stations"/>) or the time of one message (latency:
/// compressing, slowed by CPU load, the wire bytes at the link rate, and decompressing at the codec's own speed; for a
/// step whose recent calls were measured one at a time, what they took beyond that CPU replaces the wire time,
/// <see cref="MeasuredLatency"/>),
/// from estimates per key (action and size class); a step a key never tried takes a ratio scaled by the priors from
/// the key's nearest measured steps (<see cref="RatioPrediction"/>) and the policy-wide speed (else the prior). A
/// share of messages and every key at least every 5 s try a neighbouring step, two messages in a row of which only
/// the second is timed (raw, with nothing to time, one message); the CPU guard caps the ladder under pressure; an
/// entropy sample sends incompressible messages raw before a codec without early abort (or a key's first message)
/// sees them; and a compressed message
/// that does not save <see cref="AdaptiveSettings.MinSaving"/> (more in the latency model, where decompressing must pay
/// for itself) goes raw. While it measures the link, messages to a peer on this machine go raw without a decision and
/// stay out of the link estimate (<see cref="RawToLocalPeers"/>, unless the options turn it off).
/// </summary>
internal sealed partial class AdaptivePolicy : MessagePolicy
{
    private const int RawHeader = CompressedFrame.HeaderSize + CompressedFrame.RawBlockHeaderSize;
    private const int CompressedHeader = CompressedFrame.HeaderSize + CompressedFrame.CompressedBlockHeaderSize;

    private readonly AdaptiveSettings _settings;
    private readonly IPolicyEnvironment _env;
    private readonly Arm[] _arms;
    private readonly Estimates _global;
    private readonly Lock _globalGate = new();
    private readonly double[] _decode = new double[8];
    private readonly KeyTable<AdaptiveKey> _keys;
    private readonly long _explorationTicks = (long)(AdaptiveSettings.ExplorationInterval.TotalSeconds * Stopwatch.Frequency);
    private readonly long _timingTicks = (long)(TimingInterval.TotalSeconds * Stopwatch.Frequency);
    private long _keysCreated;
    private long _decodeTimedAt = long.MinValue;

    public AdaptivePolicy(AdaptiveSettings settings, IPolicyEnvironment env)
        : base(settings.Log)
    {
        _settings = settings;
        _env = env;
        _arms = settings.Arms;
        long now = env.Timestamp;
        _global = new Estimates(_arms.Length, now);
        Array.Fill(_decode, double.NaN);
        Cpu = new CpuMonitor(env, settings.CpuHighWatermark, settings.CpuLowWatermark, _arms.Length - 1);
        Link = new LinkEstimator(settings.LinkBytesPerSecond, settings.MeasureLink, now);
        Overlap = new CallOverlap();
        _keys = new KeyTable<AdaptiveKey>((action, sizeClass) => new AdaptiveKey(
            action, sizeClass, _arms.Length, _env.Timestamp, settings.Seed + ((ulong)Interlocked.Increment(ref _keysCreated) * 0x9E3779B97F4A7C15)));
    }

    /// <summary>
    /// A step's codec is timed at most once in this interval per key (every message until it has
    /// <see cref="Estimates.TimeSamples"/> times), and received frames' decoding once in it per policy: a reading of
    /// the thread's CPU clock is a system call that takes the scheduler's lock, and on a service of 10,000 LZ4 replies a
    /// second, two a reply took 2.6 µs of its ~75 µs (docs/compression.md, "Cost per message"). At 200 times a second
    /// a key's estimates still follow a change within 40 ms; messages further apart than this are all timed.
    /// </summary>
    public static readonly TimeSpan TimingInterval = TimeSpan.FromMilliseconds(5);

    public CpuMonitor Cpu { get; }

    public LinkEstimator Link { get; }

    /// <summary>Whether this policy's calls come one at a time; a loaded process whose calls do keeps the latency goal in Auto.</summary>
    public CallOverlap Overlap { get; }

    public IReadOnlyList<Arm> Arms => _arms;

    public override CompressionChoice Choose(string action, ReadOnlySpan<byte> sample, long length)
    {
        long now = _env.Timestamp;
        Cpu.Sample(now);
        AdaptiveKey key = _keys.Get(action, KeyTable<AdaptiveKey>.SizeClass(length));
        double link = Link.Estimate(now, out string source, out bool capacity, Cpu.Busy, out double measured);
        CompressionMetrics.Link(link, source);
        CompressionGoal goal = _settings.Goal != CompressionGoal.Auto ? _settings.Goal
            : (Cpu.Loaded && !Overlap.Serial(now)) || Link.Full(now) ? CompressionGoal.Throughput : CompressionGoal.Latency;
        // Other processes' CPU (counted while the cores are full) slows this process's sends only where the link does
        // not pace them: on a full 100 Mbit/s link it priced DEFLATE 6 as CPU-bound and sent zstd 1 at 0.88x of it,
        // though this process's own core had room.
        double othersCpu = capacity ? 0 : Cpu.OthersCpuSecondsPerByte;
        var model = new AdaptiveModel(length == long.MaxValue ? CompressedFrame.StreamBlockSize : length, link, goal, Cpu.Utilization,
            Cpu.OwnCpuSecondsPerByte, othersCpu, _env.ProcessorCount, Cpu.MachineCores);
        int cap = Math.Min(Cpu.Cap, _arms.Length - 1);
        int chosen;
        CompressionDecisionReason reason;
        double predicted;
        double rate;
        double rawRate;
        bool firstLook;
        double cpuShare;
        bool heldBack;
        bool timed;
        bool warm;
        double latencyCpu;
        lock (key.Gate)
        {
            key.Messages++;
            // Every step's ratio once per decision: predicting an unmeasured one reads the key's other steps.
            Span<double> ratios = stackalloc double[_arms.Length];
            RatioPrediction.All(_arms, key.Estimates, ratios);
            if (goal == CompressionGoal.Latency)
            {
                PrepareMeasuredLatency(key, model, ratios);
            }

            int best = Best(key, model, ratios, _arms.Length - 1);
            heldBack = best > cap;
            chosen = heldBack ? Best(key, model, ratios, cap) : best;
            reason = heldBack ? CompressionDecisionReason.CpuGuard : CompressionDecisionReason.Model;
            int probe = source != LinkEstimator.CpuBound ? Link.Probe(now, -1)
                : !Link.ProbeArmed ? -1
                : chosen > 1 ? Link.Probe(now, 1)
                : Link.ProbeHeld is var held and >= 0 ? held
                : Link.UpwardProbeDue(now) ? Link.Probe(now, UpwardProbeStep(key, model, ratios, chosen, cap, measured), upward: true)
                : -1;
            if (probe >= 0)
            {
                (chosen, reason) = (probe, CompressionDecisionReason.CapacityProbe);
            }

            int explore = key.Repeat <= cap ? key.Repeat : -1;
            key.Repeat = -1;
            if (explore < 0 && (explore = Explore(key, chosen, cap, now)) >= 0)
            {
                // Raw has no codec time to warm up and a known ratio (it teaches only the link's fit): one message.
                key.Repeat = _arms[explore].Codec is null ? -1 : explore;
            }

            if (explore >= 0)
            {
                chosen = explore;
                reason = CompressionDecisionReason.Exploration;
            }

            // A step the key's previous message did not use runs on cold caches (zstd's first use creates its
            // context): that time is not what the step costs when chosen, so explorations come in pairs.
            warm = chosen == key.LastStep;
            timed = key.Estimates.TakeTiming(chosen, warm, now, _timingTicks);
            key.LastStep = chosen;

            key.Estimates.LastTried[chosen] = now;
            predicted = ratios[chosen];
            (double Cpu, double Wire) times = Times(key, model, ratios, chosen);
            rate = 1 / Cost(key, model, chosen, times, predicted);
            latencyCpu = goal == CompressionGoal.Latency ? LatencyCpu(key, model, chosen, predicted) : double.NaN;
            rawRate = 1 / Cost(key, model, ratios, 0);
            cpuShare = CpuShare(model, times);
            firstLook = !key.Checked;
            key.Checked = true;
        }

        if (reason is CompressionDecisionReason.Model or CompressionDecisionReason.CpuGuard)
        {
            Cpu.NoteChosen(chosen, cpuShare, heldBack);
        }

        Arm arm = _arms[chosen];
        if (arm.Codec is not { } codec)
        {
            return new CompressionChoice(null, 0, reason, action, 1, key, chosen, 1, link, model.Utilization, goal, source, rate, rawRate, false, warm, latencyCpu);
        }

        bool check = firstLook || !arm.EarlyAbort;
        if (check && ByteEntropy.BitsPerByte(sample) >= ByteEntropy.Incompressible)
        {
            MarkIncompressible(key, allSteps: firstLook);
            return new CompressionChoice(null, 0, CompressionDecisionReason.Incompressible, action, 1, key, 0, 1, link, model.Utilization, goal, source, rawRate, rawRate);
        }

        if (check)
        {
            key.LooksRandom = false;
        }

        double gate = Math.Max(_settings.MinSaving, goal == CompressionGoal.Latency ? link * DecodeSecondsPerByte(codec, predicted) : 0);
        return new CompressionChoice(codec, arm.Level, reason, action, 1 - gate, key, chosen, predicted, link, model.Utilization, goal, source, rate, rawRate, timed, warm, latencyCpu);
    }

    public override bool RawToLocalPeers => _settings.MeasureLink && _settings.RawToLocalPeers;

    public override void Sent(in CompressionChoice choice, in CompressionOutcome outcome)
    {
        base.Sent(choice, outcome);
        long now = _env.Timestamp;
        // An untimed message's codec counts at its step's estimate: the CPU outside the codecs is the rest.
        long codecTicks = choice.Timed || choice.Codec is null || choice.Key is not AdaptiveKey untimed || choice.Arm <= 0
            ? outcome.ElapsedTicks
            : (long)(outcome.Length * TimeOf(untimed, choice.Arm) * Stopwatch.Frequency);
        long decodeTicks = outcome.Codec is { } framed && outcome.Length > 0
            ? (long)(outcome.Length * DecodeSecondsPerByte(framed, PayloadRatio(outcome)) * Stopwatch.Frequency) : 0;
        Cpu.AddWork(outcome.Length, codecTicks, decodeTicks);
        if (choice.Reason == CompressionDecisionReason.LocalPeer)
        {
            return;
        }

        Link.OnSent(outcome.WireLength, now, outcome.Length, Cpu.Busy, Cpu.PeersFull);
        // A gate that asked more than the whole message (the latency model on a link faster than the codec decodes)
        // kept the codec from being tried: nothing was learnt, and the time it took is no codec's speed.
        if (choice.Key is not AdaptiveKey key || choice.Codec is not { } codec || choice.Arm <= 0 || outcome.Length <= 0
            || (outcome.Codec is null && choice.MaxRatio <= 0))
        {
            return;
        }

        // A rejected attempt (sent raw) only tells that the ratio was above the gate: count it as no saving.
        double ratio = outcome.Codec is null ? 1 : PayloadRatio(outcome);
        double secondsPerByte = choice.Timed ? outcome.ElapsedTicks / (double)Stopwatch.Frequency / outcome.Length : double.NaN;
        double estimatedRatio;
        double estimatedTime;
        lock (key.Gate)
        {
            key.Estimates.Observe(choice.Arm, ratio, secondsPerByte);
            estimatedRatio = key.Estimates.Ratio[choice.Arm];
            estimatedTime = key.Estimates.SecondsPerByte[choice.Arm];
        }

        if (outcome.Codec is not null)
        {
            lock (_globalGate)
            {
                // Only speeds are shared between keys (ratios depend on the data), and only of messages that compressed:
                // zstd and LZ4 give up on random data far faster than they compress. A step's first use pays for
                // creating its codec state: that time is not its speed.
                _global.Observe(choice.Arm, ratio, _global.Samples[choice.Arm] == 0 ? double.NaN : secondsPerByte);
            }
        }

        CompressionMetrics.Estimates(key.Action, key.SizeClass, codec, choice.Level, estimatedRatio, 1 / estimatedTime);
    }

    public override void Received(in CompressionOutcome outcome)
    {
        base.Received(outcome);
        if (outcome.Codec is not { } codec || outcome.ElapsedTicks <= 0 || outcome.WireLength >= outcome.Length || outcome.Length < 4096)
        {
            return;
        }

        double secondsPerByte = outcome.ElapsedTicks / (double)Stopwatch.Frequency / outcome.Length;
        double estimate;
        lock (_globalGate)
        {
            double was = _decode[(int)codec];
            estimate = _decode[(int)codec] = double.IsNaN(was) ? secondsPerByte : (0.8 * was) + (0.2 * secondsPerByte);
        }

        CompressionMetrics.Decode(codec, 1 / estimate);
    }

    public override bool TimeDecode()
    {
        long now = _env.Timestamp;
        long last = Volatile.Read(ref _decodeTimedAt);
        return (last == long.MinValue || now - last >= _timingTicks) && Interlocked.CompareExchange(ref _decodeTimedAt, now, last) == last;
    }

    public override RoundTripClock? CreateClock() => _settings.MeasureLink ? new RoundTripClock(Link, _env, Cycle, Overlap) : null;

    public override void TransportWrite(int bytes, long ticks) => Link.OnBlockedWrite(bytes, ticks, _env.Timestamp);

    /// <summary>
    /// Decompression time per byte of <paramref name="codec"/>: measured on frames this end received, else the prior
    /// for frames of <paramref name="ratio"/>.
    /// </summary>
    public double DecodeSecondsPerByte(CompressionCodec codec, double ratio)
    {
        double measured = Volatile.Read(ref _decode[(int)codec]);
        return double.IsNaN(measured) ? ArmLadder.PriorDecodeSecondsPerByte(codec, ratio) : measured;
    }

    /// <summary>A compressed message's payload (the frame less its header) over its length.</summary>
    private static double PayloadRatio(in CompressionOutcome outcome) => Math.Max(0, outcome.WireLength - CompressedHeader) / (double)outcome.Length;

    /// <summary>
    /// The step an upward capacity probe would hold (<see cref="LinkEstimator.Probe"/>), or -1: the one above
    /// <paramref name="chosen"/>, where at the link's <paramref name="measured"/> rate (before <c>cpu_bound</c> lifted
    /// it) the model prefers a step above <paramref name="chosen"/>, and the cores have room for that step to send
    /// 1/<see cref="LinkEstimator.ProbeFewer"/> of the messages: with less, the probe could not show the link full,
    /// and would only cost a window at a slower step (1 Gbit/s, where the CPU bounds LZ4). Clients that fill the
    /// machine's other cores can hold the calls back as a link does; the dearer step gives them more to decode. The
    /// room is that of this process's own cores (<see cref="CpuMonitor.OwnCoresUtilization"/>): the even spread of
    /// clients pinned elsewhere kept a service at 54% of its core from ever probing (1 Gbit/s simple 150 KB, LZ4 by the
    /// model at 0.80× of zstd).
    /// </summary>
    private int UpwardProbeStep(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios, int chosen, int cap, double measured)
    {
        int next = chosen + 1;
        double cpu = Times(key, model, ratios, chosen).Cpu;
        if (next > cap || Cpu.PeersFull || cpu <= 0
            || Cpu.OwnCoresUtilization * Times(key, model, ratios, next).Cpu / cpu > LinkEstimator.ProbeFewer)
        {
            return -1;
        }

        return Best(key, model with { Link = measured }, ratios, cap) > chosen ? next : -1;
    }

    /// <summary>The step the model prefers among 0..<paramref name="top"/>; the cheaper one on a tie.</summary>
    private int Best(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios, int top)
    {
        int best = 0;
        double bestCost = Cost(key, model, ratios, 0);
        for (int step = 1; step <= top; step++)
        {
            double cost = Cost(key, model, ratios, step);
            if (cost < bestCost * (1 - 1e-9))
            {
                best = step;
                bestCost = cost;
            }
        }

        return best;
    }

    /// <summary>Seconds per message at the bottleneck (throughput) or for the message (latency); lower is better.</summary>
    private double Cost(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios, int step) => Cost(key, model, step, Times(key, model, ratios, step), ratios[step]);

    /// <summary>The cost of <paramref name="step"/> from its <see cref="Times"/> and predicted <paramref name="ratio"/>.</summary>
    private double Cost(AdaptiveKey key, in AdaptiveModel model, int step, (double Cpu, double Wire) times, double ratio) =>
        model.Goal != CompressionGoal.Latency ? Stations(times.Cpu, times.Wire) : Latency(key, model, step, times.Wire, ratio);

    /// <summary>
    /// Seconds per message of a closed loop of callers through the CPU and then the link: the 4-norm of the two times,
    /// not the larger. Callers that wait for their replies, with times that vary (a costly level explored, a
    /// collection, the scheduler), cannot keep two stations in series both busy, so where the two times are close
    /// each idles while the other works (1.19 × the larger when equal) and a step that balances them loses to a
    /// cheaper one whose wire time is a little longer (100 Mbit/s medium 150 KB: zstd 6 at 5.26 ms of CPU and 5.27 ms
    /// on the wire served 166 replies a second, zstd 3 at 2.8 ms and 5.5 ms 180). The exponent is fitted to three
    /// grids' static medians, not derived, and errs where times are steady (docs/compression.md, "The adaptive encoder").
    /// </summary>
    internal static double Stations(double cpu, double wire)
    {
        double high = Math.Max(cpu, wire);
        if (high <= 0)
        {
            return 0;
        }

        double low = Math.Min(cpu, wire) / high;
        double low2 = low * low;
        return high * Math.Sqrt(Math.Sqrt(1 + (low2 * low2)));
    }

    /// <summary>
    /// The share of the cores that bound the CPU (<see cref="AdaptiveModel.CpuTime"/>: this process's, or where other
    /// processes' CPU counts, the busiest) a stream of messages with these <see cref="Times"/> keeps busy when the
    /// throughput model's bottleneck paces it (1 when CPU is the bottleneck); 0 in the latency model, which plans no load.
    /// </summary>
    private static double CpuShare(in AdaptiveModel model, (double Cpu, double Wire) times) =>
        model.Goal == CompressionGoal.Latency || times.Cpu <= 0 ? 0 : times.Cpu / Math.Max(times.Cpu, times.Wire);

    /// <summary>
    /// CPU time per message at the cores that bound it (<see cref="AdaptiveModel.CpuTime"/>), and time on the wire, at
    /// <paramref name="step"/>. Other processes' CPU, where it counts, includes decoding the step's codec (clients
    /// beside the service): without it zstd tied with LZ4 where the clients bound the replies (docs/compression.md).
    /// </summary>
    private (double Cpu, double Wire) Times(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios, int step)
    {
        double s = model.Length;
        double own = s * model.OwnCpuPerByte;
        double others = s * model.OthersCpuPerByte;
        if (_arms[step].Codec is not { } codec)
        {
            return (model.CpuTime(own, others), (s + RawHeader) / model.Link);
        }

        double decoding = others > 0 ? s * DecodeSecondsPerByte(codec, ratios[step]) : 0;
        return (model.CpuTime(own + (s * TimeOf(key, step)), others + decoding), ((s * ratios[step]) + CompressedHeader) / model.Link);
    }

    private double TimeOf(AdaptiveKey key, int step)
    {
        double time = key.Estimates.SecondsPerByte[step];
        if (double.IsNaN(time))
        {
            time = Volatile.Read(ref _global.SecondsPerByte[step]);
        }

        return double.IsNaN(time) ? _arms[step].PriorSecondsPerByte : time;
    }
}
