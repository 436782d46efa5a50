using BenchmarkDotNet.Running;
using Surrogate.Perf.Benchmarks;

// `--ci` selects the small parameter sets (see BenchProfile); it is ours, so BenchmarkDotNet never sees it.
if (args.Contains("--ci"))
{
    BenchProfile.UseCi();
    args = args.Where(a => a != "--ci").ToArray();
}

BenchmarkSwitcher.FromAssembly(typeof(BenchProfile).Assembly).Run(args);
