namespace Surrogate.Compression.Policies;

/// <summary>
/// What the cost of a step depends on besides the step's estimates: this process's CPU per byte outside compression
/// and the other processes' (0 where the link paces the sends), the cores this process may use and the machine's.
/// </summary>
internal readonly record struct AdaptiveModel(
    double Length, double Link, CompressionGoal Goal, double Utilization, double OwnCpu, double OthersCpu, int Cores, int MachineCores)
{
    public double OwnCpuPerByte => double.IsNaN(OwnCpu) ? 0 : OwnCpu;

    public double OthersCpuPerByte => double.IsNaN(OthersCpu) ? 0 : OthersCpu;

    /// <summary>
    /// Seconds per message at the CPU bottleneck, for <paramref name="own"/> seconds of this process's CPU and
    /// <paramref name="others"/> of the other processes': the slowest of this process's cores with its own work, the
    /// cores it may not use with the others' work, and all the machine's cores with both. Where this process may use
    /// every core that is the two together over the cores. Pinned to one of two cores with its clients on the other,
    /// the others' CPU spread evenly over both priced LZ4 on 1 Gbit/s at 137 µs a reply, close to raw's 144 µs on the
    /// wire, where the clients' core allowed 116 µs and the service's 79 µs (static LZ4 measured 1.22x uncompressed):
    /// the model sent raw for half the replies.
    /// </summary>
    public double CpuTime(double own, double others)
    {
        double time = own / Cores;
        if (others <= 0)
        {
            return time;
        }

        int machine = Math.Max(MachineCores, Cores);
        time = Math.Max(time, (own + others) / machine);
        return machine > Cores ? Math.Max(time, others / (machine - Cores)) : time;
    }
}
