using Surrogate.Compression.Framing;

namespace Surrogate.Compression.Policies;

/// <summary>
/// The 2011 DynamicEncoder's rules (Airoldi and Zavatarelli), as the article describes them: nothing below
/// <c>NoCompressionLimit</c> (the size floor, applied before any policy); the codec's fast, normal or maximum level
/// by message size (<see cref="CompressionOptions.LevelThresholds"/>); above <see cref="CompressionOptions.CpuDisableLimit"/>
/// a share of messages compressed that falls linearly to none at 100% CPU; and per action and size class, nothing
/// compressed while the mean ratio of its last 10 compressed messages is above
/// <see cref="CompressionOptions.CompressionRatioDisableLimit"/>, except one message in 32 that measures again.
/// CPU is this process's share of its cores, sampled every 250 ms.
/// </summary>
internal sealed class Rules2011Policy : MessagePolicy
{
    public const int History = 10;
    public const int Reprobe = 32;

    private readonly IPolicyEnvironment _env;
    private readonly CompressionCodec _codec;
    private readonly IReadOnlyList<int> _levels;
    private readonly int _normalFrom;
    private readonly int _maxFrom;
    private readonly double _cpuLimit;
    private readonly double _ratioLimit;
    private readonly CpuMonitor _cpu;
    private readonly KeyTable<RatioHistory> _keys = new((_, _) => new RatioHistory());
    private long _cpuDisabledCount;

    public Rules2011Policy(CompressionOptions options, IPolicyEnvironment env)
        : base(options.DecisionLog)
    {
        _env = env;
        _codec = options.Codec;
        _levels = CompressionOptions.Tiers(options.Codec);
        _normalFrom = options.LevelThresholds[0];
        _maxFrom = options.LevelThresholds[1];
        _cpuLimit = options.CpuDisableLimit;
        _ratioLimit = options.CompressionRatioDisableLimit;
        _cpu = new CpuMonitor(env, high: 1, low: 0, top: 0);
    }

    public override CompressionChoice Choose(string action, ReadOnlySpan<byte> sample, long length)
    {
        _cpu.Sample(_env.Timestamp);
        double utilization = _cpu.Utilization;
        if (utilization > _cpuLimit)
        {
            // "Disabled progressively": the share compressed falls from all at the limit to none at 100%, spread evenly.
            double share = _cpuLimit >= 1 ? 0 : Math.Max(0, (1 - utilization) / (1 - _cpuLimit));
            long n = Interlocked.Increment(ref _cpuDisabledCount);
            if (Math.Floor(n * share) == Math.Floor((n - 1) * share))
            {
                return new CompressionChoice(null, 0, CompressionDecisionReason.CpuDisabled, action, CpuUtilization: utilization);
            }
        }

        RatioHistory key = _keys.Get(action, KeyTable<RatioHistory>.SizeClass(length));
        lock (key.Gate)
        {
            if (key.Mean > _ratioLimit && ++key.Skipped % Reprobe != 0)
            {
                return new CompressionChoice(null, 0, CompressionDecisionReason.RatioDisabled, action, Key: key, CpuUtilization: utilization);
            }
        }

        int level = length >= _maxFrom ? _levels[2] : length >= _normalFrom ? _levels[1] : _levels[0];
        return new CompressionChoice(_codec, level, CompressionDecisionReason.SizeRule, action, Key: key, CpuUtilization: utilization);
    }

    public override void Sent(in CompressionChoice choice, in CompressionOutcome outcome)
    {
        base.Sent(choice, outcome);
        if (choice.Key is RatioHistory key && choice.Codec is not null && outcome.Length > 0)
        {
            double ratio = outcome.Codec is null ? 1 : (double)outcome.WireLength / outcome.Length;
            lock (key.Gate)
            {
                key.Add(ratio);
            }
        }
    }

    /// <summary>The ratios of an action's last <see cref="History"/> compressed messages of one size class.</summary>
    internal sealed class RatioHistory
    {
        private readonly double[] _ratios = new double[History];
        private int _count;

        public Lock Gate { get; } = new();

        public long Skipped { get; set; }

        /// <summary>The mean of the recorded ratios; 0 before any.</summary>
        public double Mean { get; private set; }

        public void Add(double ratio)
        {
            _ratios[_count % History] = ratio;
            _count++;
            int kept = Math.Min(_count, History);
            double sum = 0;
            for (int i = 0; i < kept; i++)
            {
                sum += _ratios[i];
            }

            Mean = sum / kept;
        }
    }
}
