using Xunit;

// The telemetry tests read process-wide instruments, and the machine is small: one test class at a time.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
