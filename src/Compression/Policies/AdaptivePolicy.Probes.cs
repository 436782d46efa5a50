namespace Surrogate.Compression.Policies;

/// <summary>The adaptive policy's probes at a <c>cpu_bound</c> estimate (<see cref="LinkEstimator.Probe"/>).</summary>
internal sealed partial class AdaptivePolicy
{
    /// <summary>
    /// How close the model may price raw to the cheapest codec (raw's time a message over the codec's, less 1) for a
    /// raw probe to test the two where the CPU bounds them. On 1 Gbit/s complex 16 KB the model put LZ4 1–3% ahead,
    /// and static LZ4 served 0.91× of uncompressed (README's grid at cd62fda): what the model cannot see of a
    /// compressed message's cost was about a tenth.
    /// </summary>
    public const double RawTiedWithin = 0.1;

    /// <summary>
    /// The step a probe holds for this decision, or -1, at a <c>cpu_bound</c> estimate: from a dearer choice the
    /// cheapest codec; from the cheapest codec or raw the step above (<see cref="UpwardProbeStep"/>), else from the
    /// cheapest codec raw where the model prices the two as tied (<see cref="RawTied"/>); one under way holds its step.
    /// </summary>
    private int Probe(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios, int chosen, int cap, double measured, long now)
    {
        if (!Link.ProbeArmed)
        {
            return -1;
        }

        if (chosen > 1)
        {
            return Link.Probe(now, 1);
        }

        if (Link.ProbeHeld is var held and >= 0)
        {
            return held;
        }

        if (Link.ProbeDue(now, ProbeKind.Dearer) && UpwardProbeStep(key, model, ratios, chosen, cap, measured) is var next and >= 0)
        {
            return Link.Probe(now, next, ProbeKind.Dearer);
        }

        return chosen == 1 && Link.ProbeDue(now, ProbeKind.Raw) && RawTied(key, model, ratios) ? Link.Probe(now, 0, ProbeKind.Raw) : -1;
    }

    /// <summary>
    /// The step an upward capacity probe would hold, or -1: the one above <paramref name="chosen"/>, where at the
    /// link's <paramref name="measured"/> rate (before <c>cpu_bound</c> lifted it) the model prefers a step above
    /// <paramref name="chosen"/>, and the cores have room for that step to send 1/<see cref="LinkEstimator.ProbeFewer"/>
    /// of the messages: with less, the probe could not show the link full, and would only cost a window at a slower
    /// step (1 Gbit/s, where the CPU bounds LZ4). Clients that fill the machine's other cores can hold the calls back
    /// as a link does; the dearer step gives them more to decode.
    /// </summary>
    private int UpwardProbeStep(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios, int chosen, int cap, double measured)
    {
        int next = chosen + 1;
        double cpu = Times(key, model, ratios, chosen).Cpu;
        if (next > cap || Cpu.PeersFull || cpu <= 0
            || Cpu.CoresUtilization * Times(key, model, ratios, next).Cpu / cpu > LinkEstimator.ProbeFewer)
        {
            return -1;
        }

        return Best(key, model with { Link = measured }, ratios, cap) > chosen ? next : -1;
    }

    /// <summary>
    /// Whether the model prices raw within <see cref="RawTiedWithin"/> of the cheapest codec: a margin that small is
    /// within what the model leaves out, and a raw probe (or its verdict, <see cref="LinkEstimator.RawWins"/>) decides.
    /// </summary>
    private bool RawTied(AdaptiveKey key, in AdaptiveModel model, ReadOnlySpan<double> ratios) =>
        Cost(key, model, ratios, 0) <= (1 + RawTiedWithin) * Cost(key, model, ratios, 1);
}
