namespace Surrogate.Perf.Benchmarks.Columns;

/// <summary>Names the payload a benchmark method produces or reads, for <see cref="PayloadBytesColumn"/>.</summary>
/// <param name="key">A key known to <see cref="PayloadSizes"/>.</param>
[AttributeUsage(AttributeTargets.Method)]
public sealed class PayloadAttribute(string key) : Attribute
{
    /// <summary>The payload key.</summary>
    public string Key { get; } = key;
}
