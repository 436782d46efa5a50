using System.Text;
using Surrogate.Perf.Harness.Measurement;
using static Surrogate.Perf.Harness.Reports.Format;

namespace Surrogate.Perf.Harness.Reports;

/// <summary>Markdown tables of trace findings, for the console, results.md and the analyze verb.</summary>
public static class TraceTables
{
    public const string Explanation =
        "EventPipe SampleProfiler samples every managed thread about every millisecond, running or blocked: this is " +
        "thread time, not CPU time. Blocked samples fall under UNMANAGED_CODE_TIME, running managed ones under CPU_TIME; " +
        "both pseudo-frames and the thread nodes are folded away. \"busy\" counts only CPU_TIME samples, less the thread pool's " +
        "idle spinning and the finalizer thread (whose idle gaps the thread-time computer charges to its last finalizer); frame percentages are of busy samples, and the inclusive list leaves out System.Private.CoreLib " +
        "(thread start, thread pool and async plumbing, on every stack). " +
        "DataSet XML = samples with System.Data.XmlDataLoader or XMLDiffLoader on the stack (DataSet.ReadXml reading " +
        "rows); surrogate = samples with a frame of the codec assembly (DataSetSurrogate, namespace Surrogate).";

    public static string Markdown(IReadOnlyList<TraceSummary> traces, int topFrames)
    {
        var md = new StringBuilder();
        md.AppendLine(Explanation).AppendLine();
        md.AppendLine("| process | case | scenario | samples | busy | DataSet XML (all / busy) | surrogate (all / busy) | trace |");
        md.AppendLine("|---|---|---|--:|--:|--:|--:|---|");
        foreach (TraceSummary t in traces)
        {
            md.AppendLine($"| {t.Process} | {t.Case} | {t.Scenario} | {t.Samples} | {t.BusySamples} | " +
                $"{Percent(t.DataSetXmlShare)} / {Percent(t.DataSetXmlBusyShare)} | {Percent(t.SurrogateShare)} / {Percent(t.SurrogateBusyShare)} | " +
                $"{Path.GetFileName(t.NetTraceFile)} |");
        }

        foreach (TraceSummary t in traces)
        {
            md.AppendLine().AppendLine($"### {t.Process}: {t.Case} / {t.Scenario}").AppendLine();
            md.AppendLine("| inclusive % | frame (top by inclusive) | | exclusive % | frame (top by exclusive) |");
            md.AppendLine("|--:|---|---|--:|---|");
            for (int i = 0; i < Math.Min(topFrames, Math.Max(t.TopInclusive.Count, t.TopExclusive.Count)); i++)
            {
                FrameCost? inc = i < t.TopInclusive.Count ? t.TopInclusive[i] : null;
                FrameCost? exc = i < t.TopExclusive.Count ? t.TopExclusive[i] : null;
                md.AppendLine($"| {(inc is null ? "" : inc.InclusivePercent.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture))} | {Cell(inc?.Frame)} | | " +
                    $"{(exc is null ? "" : exc.ExclusivePercent.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture))} | {Cell(exc?.Frame)} |");
            }
        }

        return md.ToString();
    }

    private static string Cell(string? frame) =>
        frame is null ? string.Empty : "`" + (frame.Length > 110 ? frame[..110] + "…" : frame).Replace("|", "\\|", StringComparison.Ordinal).Replace("`", "'", StringComparison.Ordinal) + "`";
}
