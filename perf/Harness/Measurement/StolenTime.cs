using System.Globalization;

namespace Surrogate.Perf.Harness.Measurement;

/// <summary>The machine's CPU time so far in the kernel's ticks: what a hypervisor stole, and every state's together.</summary>
public readonly record struct CpuTicks(long Stolen, long All);

/// <summary>
/// Time a hypervisor stole from this machine's virtual CPUs (Linux /proc/stat, the aggregate line's steal field), as a
/// share of all CPU time between two readings. On a shared virtual machine the host takes a core for seconds at a
/// time: in one 10 s reading during a grid a third of the CPU time was stolen, in the next minute none, and a window
/// measured through such a stretch runs slow for reasons no contender has (docs/perf.md, "Stolen time" under "Caveats").
/// </summary>
public static class StolenTime
{
    private const string StatPath = "/proc/stat";

    /// <summary>The machine's ticks now; null off Linux or when /proc/stat cannot be read or parsed.</summary>
    public static CpuTicks? Read()
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        try
        {
            return Parse(File.ReadAllText(StatPath));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The ticks on the aggregate <c>cpu</c> line of <paramref name="stat"/>; null without one that has a steal field.</summary>
    public static CpuTicks? Parse(string stat)
    {
        foreach (string line in stat.Split('\n'))
        {
            if (!line.StartsWith("cpu ", StringComparison.Ordinal))
            {
                continue;
            }

            // user nice system idle iowait irq softirq steal guest guest_nice; guest time is inside user already.
            string[] fields = line[4..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length < 8)
            {
                return null;
            }

            long all = 0;
            long ticks = 0;
            for (int i = 0; i < 8; i++)
            {
                if (!long.TryParse(fields[i], NumberStyles.None, CultureInfo.InvariantCulture, out ticks))
                {
                    return null;
                }

                all += ticks;
            }

            return new CpuTicks(ticks, all); // the last read, the eighth field, is steal
        }

        return null;
    }

    /// <summary>The share of the CPU time from <paramref name="before"/> to <paramref name="after"/> that was stolen; null when either is unknown or no tick passed.</summary>
    public static double? Share(CpuTicks? before, CpuTicks? after) =>
        before is { } b && after is { } a && a.All > b.All ? Math.Max(0, a.Stolen - b.Stolen) / (double)(a.All - b.All) : null;
}
