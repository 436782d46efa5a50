using BenchmarkDotNet.Running;
using Surrogate.Perf.Benchmarks;

// Our own switches (BenchmarkDotNet never sees them): `--ci` picks the small parameter sets, which `--job dry`
// implies; `--scenarios a,b` narrows the codec and reader-type scenarios. See BenchProfile.
args = BenchProfile.ApplyArguments(args);
BenchmarkSwitcher.FromAssembly(typeof(BenchProfile).Assembly).Run(args);
