using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>The adaptive policy's latency model: a step's modelled time, and what measured calls put in place of its wire time.</summary>
internal sealed partial class AdaptivePolicy
{
    /// <summary>
    /// A call whose reply went out as <paramref name="sentAs"/> took <paramref name="ticks"/> from its request to the
    /// caller's next one: beyond the step's modelled CPU time, what its calls take (<see cref="MeasuredLatency"/>).
    /// </summary>
    public void Cycle(CompressionChoice sentAs, long ticks)
    {
        if (sentAs.Key is not AdaptiveKey key || !sentAs.Warm || double.IsNaN(sentAs.LatencyCpu) || sentAs.Arm < 0 || ticks <= 0
            || Link.InFlight > MeasuredLatency.SerialUpTo)
        {
            return;
        }

        double beyond = (ticks / (double)Stopwatch.Frequency) - sentAs.LatencyCpu;
        lock (key.Gate)
        {
            key.Latency.Observe(sentAs.Arm, beyond, chosen: sentAs.Reason != CompressionDecisionReason.Exploration);
        }
    }

    /// <summary>
    /// The latency model's seconds for a message at <paramref name="step"/>: its CPU time, and either what its recent
    /// calls took beyond that or what the line through the measured steps gives for its <paramref name="wire"/> time
    /// (the model's wire time where none is measured).
    /// </summary>
    private double Latency(AdaptiveKey key, in AdaptiveModel model, int step, double wire, double ratio)
    {
        double cpu = LatencyCpu(key, model, step, ratio);
        return key.Latency.Known(step) ? cpu + key.Latency.Beyond(step) : cpu + (key.Latency.PerWire * wire) + key.Latency.Shared;
    }

    /// <summary>The latency model's CPU seconds for a message at <paramref name="step"/>: compressing, slowed by the load, and decoding.</summary>
    private double LatencyCpu(AdaptiveKey key, in AdaptiveModel model, int step, double ratio) =>
        _arms[step].Codec is not { } codec ? 0
            : (model.Length * TimeOf(key, step) / Math.Max(0.1, 1 - model.Utilization)) + (model.Length * DecodeSecondsPerByte(codec, ratio));

    /// <summary>
    /// Which of the key's steps have measured calls for this decision, and how what they took beyond their CPU time
    /// follows the model's wire time (<see cref="MeasuredLatency.Shared"/> and <see cref="MeasuredLatency.PerWire"/>):
    /// a line through the measured steps, so that a link estimate that is off (the round-trip fit read one caller's
    /// 100 Mbit/s link at 140) is off for an unmeasured step by its own bytes, not by the measured steps' mean. With
    /// one measured step, or steps whose wire times are too close to tell a slope, the slope is 1; it is kept within
    /// [0.5, 2].
    /// </summary>
    private void PrepareMeasuredLatency(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios)
    {
        MeasuredLatency latency = key.Latency;
        latency.Refresh(Link.InFlight);
        double n = 0;
        double sumWire = 0;
        double sumBeyond = 0;
        double sumWire2 = 0;
        double sumWireBeyond = 0;
        for (int step = 0; step < _arms.Length; step++)
        {
            if (latency.Known(step))
            {
                double wire = Times(key, model, ratios, step).Wire;
                double beyond = latency.Beyond(step);
                (n, sumWire, sumBeyond) = (n + 1, sumWire + wire, sumBeyond + beyond);
                (sumWire2, sumWireBeyond) = (sumWire2 + (wire * wire), sumWireBeyond + (wire * beyond));
            }
        }

        double slope = 1;
        double spread = n > 1 ? (sumWire2 / n) - (sumWire / n * (sumWire / n)) : 0;
        if (spread > 0.01 * (sumWire / n * (sumWire / n)))
        {
            slope = Math.Clamp(((sumWireBeyond / n) - (sumWire / n * (sumBeyond / n))) / spread, 0.5, 2);
        }

        latency.PerWire = slope;
        latency.Shared = n == 0 ? 0 : (sumBeyond - (slope * sumWire)) / n;
    }
}
