using System.Globalization;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>Number formatting shared by every writer: invariant culture, units in column names.</summary>
public static class Format
{
    public static string Ms(double value) => value >= 100 ? value.ToString("0", CultureInfo.InvariantCulture)
        : value >= 10 ? value.ToString("0.0", CultureInfo.InvariantCulture)
        : value.ToString("0.000", CultureInfo.InvariantCulture);

    public static string Num(double value) => value >= 100 ? value.ToString("0", CultureInfo.InvariantCulture) : value.ToString("0.0", CultureInfo.InvariantCulture);

    public static string Kb(double bytes) => (bytes / 1024).ToString(bytes >= 100 * 1024 ? "0" : "0.0", CultureInfo.InvariantCulture);

    public static string Ratio(double? ratio) => ratio is { } r ? r.ToString("0.00", CultureInfo.InvariantCulture) : "-";

    public static string Percent(double share) => (share * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";

    public static string Raw(double value) => value.ToString("R", CultureInfo.InvariantCulture);
}
