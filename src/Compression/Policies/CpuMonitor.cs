using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// This process's CPU use, measured from <see cref="IPolicyEnvironment.ProcessCpuTime"/> deltas over wall time and
/// cores every <see cref="SampleInterval"/> (on the path of a decision, at most once per interval), the use of its cores
/// by every process (from <see cref="IPolicyEnvironment.MachineCpuTime"/>: clients on the same machine take cores
/// too; the other processes' part taken as spread evenly over the machine's cores, which a pinned process is not), the
/// thread pool's queue, the CPU spent per byte sent outside compression (this process's, and while the cores are full
/// the other processes', less their decoding of what was sent), and the adaptive policy's CPU guard: a cap on
/// the ladder step that goes down one step after pressure held for 2 s (and every 2 s while it lasts) and back up one
/// step after 5 s in which relief held in most samples and pressure in none (after 1 s of every sample at or below
/// half the high watermark, idle). Pressure is CPU at or above the high
/// watermark, or a thread-pool queue of 4 items per core or more that is not shrinking, while the model's choices did
/// not plan that load; relief is CPU at or below the low watermark, the planned load, or CPU below the high watermark
/// while the cap held back most of the model's choices, with a queue below that pressure level (a cap that held the
/// model at raw on a full link at 60% CPU never lifted while relief asked for the low watermark). A few callers on one
/// core keep a short queue and the smoothed CPU around the low watermark: relief that needed an empty queue and every
/// sample below the watermark never came there, and left the cap at raw. The throughput model counts CPU as a
/// bottleneck: when its choices are CPU-bound (their planned share of the cores at or above the high watermark), a busy
/// CPU and waiting work are what it chose as fastest, and stepping down would only slow it; the guard is for load the
/// model did not expect.
/// </summary>
internal sealed class CpuMonitor
{
    public static readonly TimeSpan SampleInterval = TimeSpan.FromMilliseconds(250);
    public static readonly TimeSpan StepDownAfter = TimeSpan.FromSeconds(2);
    public static readonly TimeSpan StepUpAfter = TimeSpan.FromSeconds(5);
    public static readonly TimeSpan StepUpFromIdleAfter = TimeSpan.FromSeconds(1);

    /// <summary>No cap: every step of the ladder is allowed.</summary>
    public const int Uncapped = int.MaxValue;

    // Auto goal: loaded from 60% of all cores, idle again below 50%.
    private const double LoadedFrom = 0.6;
    private const double IdleBelow = 0.5;

    // The cores are full from 85% of them busy, every process counted: then other processes compete with this one.
    private const double CoresFullFrom = 0.85;

    // CPU per byte: the second lowest of the last 8 samples (2 s at one sample per interval).
    private const int PerByteSamples = 8;

    private readonly IPolicyEnvironment _env;
    private readonly double _high;
    private readonly double _low;
    private readonly int _top;
    private readonly long _interval = Ticks(SampleInterval);
    private readonly Lock _gate = new();
    private long _lastSample;
    private TimeSpan _lastCpu;
    private TimeSpan _lastMachine;
    private double _utilization;
    private double _coresUtilization;
    private double _peersUtilization;
    private long _previousQueue;
    private long _pressureSince = -1;
    private long _reliefSince = -1;
    private int _reliefSamples;
    private long _idleSince = -1;
    private int _windowSamples;
    private int _cap = Uncapped;
    private int _highestChosen;
    private int _highestRecent;
    private long _plannedMillionths;
    private long _plannedCount;
    private long _heldBackCount;
    private bool _loaded;
    private bool _sampled;
    private long _bytes;
    private long _codecTicks;
    private long _decodeTicks;
    private readonly double[] _othersPerByteSamples = new double[PerByteSamples];
    private readonly double[] _ownPerByteSamples = new double[PerByteSamples];
    private int _perByteCount;
    private double _othersPerByte = double.NaN;
    private double _ownCpuPerByte = double.NaN;
    private int _machineCores;

    /// <param name="env">The process.</param>
    /// <param name="high">The high watermark; 1 or more turns the guard off.</param>
    /// <param name="low">The low watermark.</param>
    /// <param name="top">The highest ladder step (the cap goes back to <see cref="Uncapped"/> when it passes it).</param>
    public CpuMonitor(IPolicyEnvironment env, double high, double low, int top)
    {
        _env = env;
        _high = high;
        _low = low;
        _top = top;
        _lastSample = env.Timestamp;
        _lastCpu = env.ProcessCpuTime;
        _lastMachine = env.MachineCpuTime?.Busy ?? TimeSpan.Zero;
    }

    /// <summary>This process's CPU use over the last intervals, a share of all cores (0 until the first interval ends).</summary>
    public double Utilization => Volatile.Read(ref _utilization);

    /// <summary>
    /// The use of this process's cores by every process over the last intervals, a share of them (at least
    /// <see cref="Utilization"/>; 0 until the first interval ends).
    /// </summary>
    public double CoresUtilization => Volatile.Read(ref _coresUtilization);

    /// <summary>
    /// The use of this process's cores as far as it can tell: <see cref="CoresUtilization"/> where it may use every core
    /// of the machine, its own <see cref="Utilization"/> where it may use fewer, since the even spread then counts other
    /// processes on cores it does not run on (half of a full client core for a service pinned to one of two).
    /// </summary>
    public double OwnCoresUtilization => MachineCores > _env.ProcessorCount ? Utilization : CoresUtilization;

    /// <summary>Whether the cores were full (85% or more busy, every process counted) over the last intervals.</summary>
    public bool CoresFull => CoresUtilization >= CoresFullFrom;

    /// <summary>
    /// Whether the machine's cores this process may not use were full (85% or more busy with other processes' work)
    /// over the last intervals; false where it may use every core. Clients on this machine pinned there can hold the
    /// calls back as a full link does while this process's cores have room (the even spread of
    /// <see cref="CoresUtilization"/> counts only half of a full client core for a service pinned to one of two).
    /// </summary>
    public bool PeersFull => Volatile.Read(ref _peersUtilization) >= CoresFullFrom;

    /// <summary>The highest ladder step the guard allows; <see cref="Uncapped"/> when it allows all.</summary>
    public int Cap => Volatile.Read(ref _cap);

    /// <summary>
    /// Whether this process's CPU use is at or above the low watermark, or the cores are full: the link cannot be told
    /// from the CPU as what held a send window back (<see cref="CarriedRate"/>). A window of replies queued behind
    /// clients that filled the cores looked like a full link while this process alone stayed below the watermark.
    /// </summary>
    public bool Busy => Utilization >= _low || CoresFull;

    /// <summary>Whether the process counts as loaded for <see cref="CompressionGoal.Auto"/>: its own CPU, or full cores.</summary>
    public bool Loaded => Volatile.Read(ref _loaded);

    /// <summary>
    /// This process's CPU seconds per byte sent spent outside compression (serialising, the transport), full cores or
    /// not; NaN until measured. Alone, it is what a choice costs where the link, not the machine's other processes,
    /// paces the sends (<see cref="LinkEstimator.Estimate(long, out string, out bool, bool, out double)"/>).
    /// </summary>
    public double OwnCpuSecondsPerByte => Volatile.Read(ref _ownCpuPerByte);

    /// <summary>
    /// The other processes' CPU seconds (on every core of the machine) per byte this process sent, counted while the
    /// cores are full and 0 while they are not, less the time decoding what was sent would take them
    /// (<see cref="AddWork"/>): a client beside the service decodes each reply, at a cost that depends on the codec
    /// (the model adds the step's own, <see cref="AdaptivePolicy"/>); NaN until measured.
    /// </summary>
    public double OthersCpuSecondsPerByte => Volatile.Read(ref _othersPerByte);

    /// <summary>The machine's cores as of the last sample; 0 where the system does not say.</summary>
    public int MachineCores => Volatile.Read(ref _machineCores);

    /// <summary>
    /// A message of <paramref name="bytes"/> was sent, <paramref name="codecTicks"/> of it compressing; its peer
    /// would take <paramref name="decodeTicks"/> (both in <see cref="Stopwatch"/> ticks) to decode it.
    /// </summary>
    public void AddWork(long bytes, long codecTicks, long decodeTicks)
    {
        Interlocked.Add(ref _bytes, bytes);
        Interlocked.Add(ref _codecTicks, codecTicks);
        if (decodeTicks != 0)
        {
            Interlocked.Add(ref _decodeTicks, decodeTicks);
        }
    }

    /// <summary>
    /// The model chose ladder step <paramref name="step"/>, planning to keep <paramref name="cpuShare"/> of the cores
    /// busy: the guard's first step down starts below the highest step chosen since the previous sample, and load
    /// the choices planned is no pressure. <paramref name="heldBack"/>: the model preferred a step above the cap.
    /// </summary>
    public void NoteChosen(int step, double cpuShare, bool heldBack)
    {
        Interlocked.Add(ref _plannedMillionths, (long)(Math.Clamp(cpuShare, 0, 1) * 1e6));
        Interlocked.Increment(ref _plannedCount);
        if (heldBack)
        {
            Interlocked.Increment(ref _heldBackCount);
        }

        int seen = Volatile.Read(ref _highestChosen);
        while (step > seen)
        {
            int was = Interlocked.CompareExchange(ref _highestChosen, step, seen);
            if (was == seen)
            {
                return;
            }

            seen = was;
        }
    }

    /// <summary>Takes a sample when the interval has passed; otherwise costs one read.</summary>
    public void Sample(long now)
    {
        if (now - Volatile.Read(ref _lastSample) < _interval)
        {
            return;
        }

        lock (_gate)
        {
            if (now - _lastSample < _interval)
            {
                return;
            }

            TimeSpan cpu = _env.ProcessCpuTime;
            (TimeSpan Busy, int Cores)? machine = _env.MachineCpuTime;
            double wall = (now - _lastSample) / (double)Stopwatch.Frequency;
            double capacity = wall * Math.Max(1, _env.ProcessorCount);
            double own = (cpu - _lastCpu).TotalSeconds;
            // Others' CPU on the whole machine, and the part of it on this process's cores if spread evenly over them.
            double othersAll = 0;
            double others = 0;
            double peersUsed = 0;
            if (machine is (TimeSpan busy, int cores))
            {
                othersAll = Math.Max(0, (busy - _lastMachine).TotalSeconds - own);
                others = othersAll * Math.Min(1, _env.ProcessorCount / (double)cores);
                peersUsed = cores > _env.ProcessorCount ? Math.Clamp(othersAll / (wall * (cores - _env.ProcessorCount)), 0, 1) : 0;
            }

            double used = Math.Clamp(own / capacity, 0, 1);
            double coresUsed = Math.Clamp((own + others) / capacity, used, 1);
            double utilization = _sampled ? (0.5 * _utilization) + (0.5 * used) : used;
            double coresUtilization = _sampled ? (0.5 * _coresUtilization) + (0.5 * coresUsed) : coresUsed;
            double peersUtilization = _sampled ? (0.5 * _peersUtilization) + (0.5 * peersUsed) : peersUsed;
            _sampled = true;
            // Others' CPU counts per byte sent only while the cores are full: only then does it slow this process.
            MeasureCpuPerByte(own, coresUsed >= CoresFullFrom ? othersAll : 0);
            Volatile.Write(ref _machineCores, machine?.Cores ?? 0);
            _lastSample = now;
            _lastCpu = cpu;
            _lastMachine = machine?.Busy ?? _lastMachine;
            Volatile.Write(ref _utilization, utilization);
            Volatile.Write(ref _coresUtilization, coresUtilization);
            Volatile.Write(ref _peersUtilization, peersUtilization);
            Volatile.Write(ref _loaded, CoresFull || utilization >= LoadedFrom || (_loaded && utilization >= IdleBelow));
            long queue = _env.PendingWorkItems;
            // The highest step chosen since the previous sample: the guard's first step down starts below it.
            _highestRecent = Interlocked.Exchange(ref _highestChosen, 0);
            long planned = Interlocked.Exchange(ref _plannedMillionths, 0);
            long count = Interlocked.Exchange(ref _plannedCount, 0);
            long heldBack = Interlocked.Exchange(ref _heldBackCount, 0);
            Guard(now, utilization, queue, count > 0 && planned / 1e6 / count >= _high, 2 * heldBack > count);
            _previousQueue = queue;
            CompressionMetrics.Cpu(utilization, _cap == Uncapped ? _top : _cap);
        }
    }

    /// <summary>
    /// The CPU outside compression per byte, this process's and the other processes' apart: each the second lowest of
    /// the last <see cref="PerByteSamples"/> samples of at least 64 KiB. Other processes count while the cores are
    /// full: clients on the same machine that spend CPU on each reply bound the replies a second as much as this
    /// process does (on a 1 Gbit/s link they filled their core, and counting this process alone, every codec's CPU
    /// looked cheap beside the link). Everything else the process does in a sample (other endpoints, tiering up code,
    /// a collection) only adds to it, and a sample can hold as few as four messages: a running mean read above 10 ns
    /// per byte (a median of 5.6, up to 190) in a quarter of a busy service's decisions (docs/compression.md), and
    /// there every choice looked CPU-bound. The second lowest, not the lowest, so that one sample whose CPU fell partly
    /// in its neighbour does not set it; a lasting rise shows after seven samples, a fall after two.
    /// </summary>
    private void MeasureCpuPerByte(double ownSeconds, double othersSeconds)
    {
        long bytes = Interlocked.Exchange(ref _bytes, 0);
        long codecTicks = Interlocked.Exchange(ref _codecTicks, 0);
        long decodeTicks = Interlocked.Exchange(ref _decodeTicks, 0);
        if (bytes < 64 * 1024)
        {
            return;
        }

        double outside = Math.Max(0, ownSeconds - (codecTicks / (double)Stopwatch.Frequency));
        int slot = _perByteCount % PerByteSamples;
        _ownPerByteSamples[slot] = outside / bytes;
        _othersPerByteSamples[slot] = Math.Max(0, othersSeconds - (decodeTicks / (double)Stopwatch.Frequency)) / bytes;
        _perByteCount++;
        int kept = Math.Min(_perByteCount, PerByteSamples);
        Volatile.Write(ref _othersPerByte, Estimates.SecondLowest(_othersPerByteSamples.AsSpan(0, kept)));
        Volatile.Write(ref _ownCpuPerByte, Estimates.SecondLowest(_ownPerByteSamples.AsSpan(0, kept)));
    }

    private void Guard(long now, double utilization, long queue, bool planned, bool heldBack)
    {
        if (_high >= 1)
        {
            return;
        }

        long busyQueue = 4L * Math.Max(1, _env.ProcessorCount);
        bool pressure = !planned && (utilization >= _high || (queue >= busyQueue && queue >= _previousQueue));
        bool relief = (planned || utilization <= _low || (heldBack && utilization < _high)) && queue < busyQueue;
        // Idle: relief with the CPU at or below half the high watermark, where one step up cannot reach pressure
        // unless it doubles the CPU. A cap set by earlier load lifted one step per 5 s even here (1 Gbit/s, complex
        // 150 KB: raw by the cap at 32% CPU for a whole cell, where LZ4 served more).
        bool idle = relief && utilization <= _high / 2;
        _idleSince = idle ? (_idleSince < 0 ? now : _idleSince) : -1;
        if (pressure)
        {
            _reliefSince = -1;
            if (_pressureSince < 0)
            {
                _pressureSince = now;
            }
            else if (now - _pressureSince >= Ticks(StepDownAfter))
            {
                int from = _cap == Uncapped ? Math.Min(_highestRecent, _top) : _cap;
                Volatile.Write(ref _cap, Math.Max(0, from - 1));
                _pressureSince = now;
            }

            return;
        }

        _pressureSince = -1;
        if (_idleSince >= 0 && now - _idleSince >= Ticks(StepUpFromIdleAfter) && _cap != Uncapped)
        {
            StepUp(now);
            _idleSince = now;
            return;
        }

        if (_reliefSince < 0)
        {
            if (!relief)
            {
                return;
            }

            (_reliefSince, _reliefSamples, _windowSamples) = (now, 0, 0);
        }

        _windowSamples++;
        _reliefSamples += relief ? 1 : 0;
        if (2 * _reliefSamples <= _windowSamples)
        {
            // Relief lost the majority of the window's samples: the next relief sample starts a new window.
            _reliefSince = -1;
        }
        else if (relief && now - _reliefSince >= Ticks(StepUpAfter) && _cap != Uncapped)
        {
            StepUp(now);
        }
    }

    /// <summary>Lifts the cap one step (off the ladder's top: uncapped) and starts a new relief window.</summary>
    private void StepUp(long now)
    {
        Volatile.Write(ref _cap, _cap + 1 >= _top ? Uncapped : _cap + 1);
        (_reliefSince, _reliefSamples, _windowSamples) = (now, 0, 0);
    }

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);
}
