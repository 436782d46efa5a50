using System.CommandLine;
using System.Globalization;
using Surrogate.Perf.Harness.Tracing;

namespace Surrogate.Perf.Harness.Cli;

/// <summary><c>analyze &lt;folder|file.nettrace&gt; [--top N]</c>: top frames and DataSet-XML vs surrogate shares of captured traces.</summary>
public static class AnalyzeCli
{
    public static Command Create()
    {
        var path = new Argument<string>("path") { Description = "a run's folder or a .nettrace file" };
        var top = new Option<int?>("--top") { Description = "frames per list" };
        var command = new Command("analyze", "top frames and DataSet-XML vs surrogate shares of captured traces") { path, top };
        command.SetAction(result =>
        {
            string[] args = result.GetValue(top) is { } n ? [result.GetValue(path)!, "--top", n.ToString(CultureInfo.InvariantCulture)] : [result.GetValue(path)!];
            return AnalyzeCommand.Run(args);
        });
        return command;
    }
}
