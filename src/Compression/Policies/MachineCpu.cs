using System.Globalization;

namespace Surrogate.Compression.Policies;

/// <summary>
/// The machine's busy CPU time and core count from Linux's /proc/stat: user, nice, system, irq and softirq over all
/// cores (time a hypervisor stole, idle and I/O wait left out), in the kernel's clock ticks of 1/100 s. Elsewhere, or
/// when the file cannot be read or parsed, nothing, and the caller counts its own process alone.
/// </summary>
internal sealed class MachineCpu
{
    private const string StatPath = "/proc/stat";
    private const double TicksPerSecond = 100;

    private bool _unavailable = !OperatingSystem.IsLinux();

    /// <summary>Busy time of all cores so far and the number of cores; null when the system does not say.</summary>
    public (TimeSpan Busy, int Cores)? Read()
    {
        if (_unavailable)
        {
            return null;
        }

        try
        {
            if (Parse(File.ReadAllText(StatPath)) is { } read)
            {
                return read;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }

        _unavailable = true;
        return null;
    }

    /// <summary>The busy time and core count in the text of /proc/stat; null when it does not have them.</summary>
    internal static (TimeSpan Busy, int Cores)? Parse(string stat)
    {
        long busy = -1;
        int cores = 0;
        foreach (Range range in stat.AsSpan().Split('\n'))
        {
            ReadOnlySpan<char> line = stat.AsSpan(range);
            if (!line.StartsWith("cpu"))
            {
                continue;
            }

            if (line.Length > 3 && char.IsAsciiDigit(line[3]))
            {
                cores++;
            }
            else if (line.Length > 3 && line[3] == ' ' && busy < 0)
            {
                busy = Busy(line[3..]);
            }
        }

        return busy < 0 || cores == 0 ? null : (TimeSpan.FromSeconds(busy / TicksPerSecond), cores);
    }

    /// <summary>user + nice + system + irq + softirq from the fields of the aggregate line; -1 if they do not parse.</summary>
    private static long Busy(ReadOnlySpan<char> fields)
    {
        // user nice system idle iowait irq softirq steal ...
        long busy = 0;
        int index = 0;
        foreach (Range range in fields.Split(' '))
        {
            ReadOnlySpan<char> field = fields[range];
            if (field.IsEmpty)
            {
                continue;
            }

            if (!long.TryParse(field, NumberStyles.None, CultureInfo.InvariantCulture, out long ticks))
            {
                return -1;
            }

            busy += index is 0 or 1 or 2 or 5 or 6 ? ticks : 0;
            if (++index == 7)
            {
                return busy;
            }
        }

        return -1;
    }
}
