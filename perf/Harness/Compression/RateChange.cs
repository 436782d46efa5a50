using System.Globalization;
using System.Text.RegularExpressions;
using Surrogate.Perf.Harness.Hosting;

namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// A mid-run link-rate change (<c>--rate-change 100mbit->1.5mbit@10s</c>): each cell starts on a veth pair shaped at
/// <see cref="From"/>, and <see cref="AtSeconds"/> into the measured window the driver changes the tbf rate of both
/// ends to <see cref="To"/>; the window lasts <see cref="AfterSeconds"/> more. Both rates get the faster one's small
/// burst (or the one given): tbf never sends a queued packet longer than its bucket, so a smaller bucket after the
/// change would keep an offload packet queued before it, and the link behind it, forever (<see cref="NetworkLink.ChangeRate"/>).
/// </summary>
public sealed partial record RateChange(LinkRate From, LinkRate To, double AtSeconds)
{
    /// <summary>Seconds measured after the change: long enough for a 5 s recovery goal and a steady mean at the new rate.</summary>
    public const double AfterSeconds = 10;

    public double WindowSeconds => AtSeconds + AfterSeconds;

    /// <summary>The link's name in the reports: <c>100mbit->1.5mbit</c>.</summary>
    public string Name => $"{From.Text}->{To.Text}";

    /// <summary>Parses <c>from->to@seconds</c> (<c>@10s</c> or <c>@10</c>); throws <see cref="ArgumentException"/> with a message for the user.</summary>
    public static RateChange Parse(string text, long? burst)
    {
        Match m = Syntax().Match(text.Trim());
        if (!m.Success)
        {
            throw new ArgumentException($"--rate-change '{text}': write from->to@seconds, e.g. 100mbit->1.5mbit@10s.");
        }

        double at = double.Parse(m.Groups["at"].Value, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture);
        if (at is < 1 or > 600)
        {
            throw new ArgumentException($"--rate-change '{text}': the change comes 1 to 600 seconds into the window.");
        }

        if (m.Groups["from"].Value == BenchLink.LoopbackName || m.Groups["to"].Value == BenchLink.LoopbackName)
        {
            throw new ArgumentException($"--rate-change '{text}': both ends are tc rates; loopback cannot be shaped.");
        }

        LinkRate before = LinkRate.Parse(m.Groups["from"].Value), after = LinkRate.Parse(m.Groups["to"].Value);
        long bucket = burst ?? BenchLink.SmallBurst(Math.Max(before.BitsPerSecond, after.BitsPerSecond));
        return before.BitsPerSecond != after.BitsPerSecond ? new RateChange(before with { Burst = bucket }, after with { Burst = bucket }, at) : throw new ArgumentException($"--rate-change '{text}': the rates are the same.");
    }

    [GeneratedRegex(@"^(?<from>[0-9.a-z]+)->(?<to>[0-9.a-z]+)@(?<at>[0-9]+(\.[0-9]+)?)s?$", RegexOptions.IgnoreCase)]
    private static partial Regex Syntax();
}

/// <summary>One contender's cell during a rate change: replies per second of every client added up, per <see cref="Recovery.BucketSeconds"/> from GO.</summary>
public sealed record RateChangeCell(BenchCell Cell, IReadOnlyList<double> OpsPerBucket);

/// <summary>
/// How long a policy contender took after the rate change to be back at the best static contender's throughput at the
/// new rate: <see cref="Seconds"/> null when it never was (<c>not recovered</c>).
/// </summary>
public sealed record RateRecovery(
    string Link, string Contender, string Class, int Size, double BeforeOps, double AfterOps, string Best, double BestAfterOps, double? Seconds)
{
    public bool Met => Seconds is { } s && s <= Recovery.GoalSeconds;
}

/// <summary>
/// The recovery computation over 500 ms buckets of replies. A static contender's throughput at the new rate is its
/// mean from <see cref="SettleSeconds"/> after the change to the end; the best of them is the target. A policy has
/// recovered at the earliest bucket boundary t ≥ the change from which its mean over the next
/// <see cref="RollingSeconds"/> reaches <see cref="Target"/> × the target and its mean from t to the end does too
/// (a single lucky window does not count); the time reported is t − change.
/// </summary>
public static class Recovery
{
    public const double BucketSeconds = 0.5;
    public const double RollingSeconds = 2;
    public const double SettleSeconds = 1;
    public const double Target = 0.95;

    /// <summary>The issue's goal: back within 5 s.</summary>
    public const double GoalSeconds = 5;

    /// <summary>Replies per bucket of each client added up and divided by the bucket's length; buckets past <paramref name="windowSeconds"/> are dropped.</summary>
    public static double[] Combine(IEnumerable<IReadOnlyList<int>> clients, double windowSeconds)
    {
        int buckets = (int)Math.Floor((windowSeconds / BucketSeconds) + 1e-9);
        var ops = new double[buckets];
        foreach (IReadOnlyList<int> timeline in clients)
        {
            for (int i = 0; i < Math.Min(buckets, timeline.Count); i++)
            {
                ops[i] += timeline[i] / BucketSeconds;
            }
        }

        return ops;
    }

    /// <summary>Mean ops/s of the buckets from <paramref name="fromSeconds"/> (inclusive) to <paramref name="toSeconds"/> (exclusive).</summary>
    public static double Mean(IReadOnlyList<double> ops, double fromSeconds, double toSeconds)
    {
        int first = Math.Max(0, (int)Math.Ceiling((fromSeconds / BucketSeconds) - 1e-9));
        int end = Math.Min(ops.Count, (int)Math.Floor((toSeconds / BucketSeconds) + 1e-9));
        return end > first ? ops.Skip(first).Take(end - first).Average() : 0;
    }

    /// <summary>Seconds after <paramref name="changeAt"/> until <paramref name="ops"/> is back at <paramref name="target"/> × <paramref name="best"/>, or null.</summary>
    public static double? SecondsToRecover(IReadOnlyList<double> ops, double changeAt, double best)
    {
        int window = (int)Math.Round(RollingSeconds / BucketSeconds);
        int first = (int)Math.Ceiling((changeAt / BucketSeconds) - 1e-9);
        double goal = Target * best;
        for (int i = first; i + window <= ops.Count; i++)
        {
            if (ops.Skip(i).Take(window).Average() >= goal && ops.Skip(i).Average() >= goal)
            {
                return (i * BucketSeconds) - changeAt;
            }
        }

        return null;
    }

    /// <summary>Every policy cell of a rate-change run against the best static contender of the same class and size.</summary>
    public static IReadOnlyList<RateRecovery> Evaluate(IReadOnlyList<RateChangeCell> cells, RateChange change)
    {
        var recoveries = new List<RateRecovery>();
        foreach (RateChangeCell cell in cells.Where(c => ContenderCatalog.Get(c.Cell.Contender).IsPolicy))
        {
            var statics = cells.Where(o => o.Cell.Class == cell.Cell.Class && o.Cell.Size == cell.Cell.Size && !ContenderCatalog.Get(o.Cell.Contender).IsPolicy)
                .Select(o => (o.Cell.Contender, After: Mean(o.OpsPerBucket, change.AtSeconds + SettleSeconds, change.WindowSeconds))).ToList();
            if (statics.Count == 0)
            {
                continue;
            }

            var best = statics.MaxBy(s => s.After);
            recoveries.Add(new RateRecovery(cell.Cell.Link, cell.Cell.Contender, cell.Cell.Class, cell.Cell.Size,
                Mean(cell.OpsPerBucket, 0, change.AtSeconds), Mean(cell.OpsPerBucket, change.AtSeconds + SettleSeconds, change.WindowSeconds),
                best.Contender, best.After, SecondsToRecover(cell.OpsPerBucket, change.AtSeconds, best.After)));
        }

        return recoveries;
    }
}
