using System.Text.RegularExpressions;
using Microsoft.Diagnostics.Symbols;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Stacks;
using Microsoft.Diagnostics.Tracing.Stacks.Formats;
using Surrogate.Perf.Harness.Measurement;

namespace Surrogate.Perf.Harness.Tracing;

/// <summary>
/// Turns a .nettrace into thread-time stacks (TraceEvent's SampleProfilerThreadTimeComputer), writes them as
/// speedscope JSON, and summarises them: top frames by inclusive and exclusive time over the busy samples, and
/// the share of samples under DataSet's XML loaders versus under the surrogate codec.
/// </summary>
public static partial class TraceAnalyzer
{
    private const string CpuTime = "CPU_TIME";

    public static TraceSummary Analyze(string netTracePath, string process, string caseName, string scenario, string outDir, bool writeSpeedscope, int top = 15)
    {
        string etlx = TraceLog.CreateFromEventPipeDataFile(netTracePath, Path.ChangeExtension(netTracePath, ".etlx"));
        try
        {
            using var log = new TraceLog(etlx);
            using var symbols = new SymbolReader(TextWriter.Null, nt_symbol_path: string.Empty);
            var stacks = new MutableTraceEventStackSource(log) { OnlyManagedCodeStacks = true };
            new SampleProfilerThreadTimeComputer(log, symbols) { IncludeEventSourceEvents = false }.GenerateThreadTimeStacks(stacks);

            string? speedscope = null;
            if (writeSpeedscope)
            {
                speedscope = Path.ChangeExtension(netTracePath, ".speedscope.json");
                SpeedScopeStackSourceWriter.WriteStackViewAsJson(stacks, speedscope);
            }

            var tally = Tally(stacks);
            return new TraceSummary(
                process,
                caseName,
                scenario,
                Path.GetRelativePath(outDir, netTracePath),
                speedscope is null ? null : Path.GetRelativePath(outDir, speedscope),
                tally.Samples,
                tally.BusySamples,
                Share(tally.DataSetXml, tally.Total),
                Share(tally.Surrogate, tally.Total),
                Share(tally.DataSetXmlBusy, tally.BusyTotal),
                Share(tally.SurrogateBusy, tally.BusyTotal),
                Top(tally.Inclusive, tally.Exclusive, tally.BusyTotal, inclusiveOrder: true, top),
                Top(tally.Inclusive, tally.Exclusive, tally.BusyTotal, inclusiveOrder: false, top));
        }
        finally
        {
            File.Delete(etlx);
        }
    }

    private sealed class Tallies
    {
        public long Samples;
        public long BusySamples;
        public double Total;
        public double BusyTotal;
        public double DataSetXml;
        public double Surrogate;
        public double DataSetXmlBusy;
        public double SurrogateBusy;
        public readonly Dictionary<string, double> Inclusive = new(StringComparer.Ordinal);
        public readonly Dictionary<string, double> Exclusive = new(StringComparer.Ordinal);
    }

    /// <summary>
    /// Walks every sample's stack once. Pseudo-frames (ROOT, process, thread, CPU_TIME, UNMANAGED_CODE_TIME) are
    /// folded: their time goes to the nearest real frame. Frame costs count busy samples only (a CPU_TIME leaf:
    /// the thread was running managed code, and not in the thread pool's idle spin); blocked threads would
    /// otherwise bury them under wait functions.
    /// </summary>
    private static Tallies Tally(StackSource stacks)
    {
        var t = new Tallies();
        var frames = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        stacks.ForEach(sample =>
        {
            frames.Clear();
            bool busy = false, finalizer = false;
            for (var index = sample.StackIndex; index != StackSourceCallStackIndex.Invalid; index = stacks.GetCallerIndex(index))
            {
                string name = stacks.GetFrameName(stacks.GetFrameIndex(index), verboseName: false);
                busy |= name == CpuTime;
                finalizer |= name.StartsWith("Thread (", StringComparison.Ordinal) && name.Contains("Finalizer", StringComparison.Ordinal);
                if (!PseudoFrame().IsMatch(name))
                {
                    frames.Add(name);
                }
            }

            // A thread-pool thread spinning or parking for work is idle even when the sampler saw it on CPU.
            // The finalizer thread is left out too: between finalizers the thread-time computer charges its idle gaps
            // to the last finalizer's stack as CPU_TIME (observed: most "busy" client samples in GC.GetGCMemoryInfo).
            busy &= frames.Count > 0 && !finalizer && !IdleFrame().IsMatch(frames[0]);
            double metric = sample.Metric;
            bool xml = frames.Exists(f => f.Contains("XmlDataLoader", StringComparison.Ordinal) || f.Contains("XMLDiffLoader", StringComparison.Ordinal));
            bool codec = frames.Exists(f => f.StartsWith("DataSetSurrogate!", StringComparison.Ordinal));
            t.Samples++;
            t.Total += metric;
            t.DataSetXml += xml ? metric : 0;
            t.Surrogate += codec ? metric : 0;
            if (!busy)
            {
                return;
            }

            t.BusySamples++;
            t.BusyTotal += metric;
            t.DataSetXmlBusy += xml ? metric : 0;
            t.SurrogateBusy += codec ? metric : 0;
            t.Exclusive[frames[0]] = t.Exclusive.GetValueOrDefault(frames[0]) + metric;
            seen.Clear();
            foreach (string frame in frames)
            {
                // Inclusive costs skip CoreLib (thread start, thread pool, async plumbing): every stack passes through it.
                if (!frame.StartsWith("System.Private.CoreLib!", StringComparison.Ordinal) && seen.Add(frame))
                {
                    t.Inclusive[frame] = t.Inclusive.GetValueOrDefault(frame) + metric;
                }
            }
        });
        return t;
    }

    private static List<FrameCost> Top(Dictionary<string, double> inclusive, Dictionary<string, double> exclusive, double total, bool inclusiveOrder, int top)
    {
        var source = inclusiveOrder ? inclusive : exclusive;
        return source.OrderByDescending(p => p.Value).Take(top)
            .Select(p => new FrameCost(p.Key, 100 * Share(inclusive.GetValueOrDefault(p.Key), total), 100 * Share(exclusive.GetValueOrDefault(p.Key), total)))
            .ToList();
    }

    private static double Share(double part, double total) => total > 0 ? part / total : 0;

    [GeneratedRegex(@"LowLevelSpinWaiter\.Wait|LowLevelLifoSemaphore\.Wait|Thread\.Sleep|Monitor\.Wait|WaitHandle\.Wait|SpinWait\.Spin")]
    private static partial Regex IdleFrame();

    [GeneratedRegex(@"^(ROOT|CPU_TIME|UNMANAGED_CODE_TIME|BLOCKED_TIME|Threads|\(Non-Activities\)|Thread \(.*|Process\d* .*)$")]
    private static partial Regex PseudoFrame();
}
