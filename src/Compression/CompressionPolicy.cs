namespace Surrogate.Compression;

/// <summary>How a compressing encoder chooses the codec and level of each message it sends.</summary>
public enum CompressionPolicy
{
    /// <summary>Every message from <see cref="CompressionOptions.MinMessageSize"/> up with one codec and level.</summary>
    Fixed,

    /// <summary>
    /// Per message, raw or one of <see cref="CompressionOptions.AdaptiveCodecs"/> at one of its levels, whichever the
    /// model says is best from measured ratios, speeds, link rate and CPU load, with a small share exploring.
    /// </summary>
    Adaptive,

    /// <summary>
    /// The rules of the 2011 DynamicEncoder (Airoldi and Zavatarelli): a size floor, levels by size, compression off
    /// progressively above <see cref="CompressionOptions.CpuDisableLimit"/>, and off per action and size while the
    /// recent ratio is worse than <see cref="CompressionOptions.CompressionRatioDisableLimit"/>.
    /// </summary>
    Rules2011,
}

/// <summary>What the adaptive policy's model optimises.</summary>
public enum CompressionGoal
{
    /// <summary>
    /// Latency while this process has CPU to spare (below 50% of its cores) and its link is idle between calls;
    /// throughput once it is loaded (from 60%) or its own sends, several calls in flight, keep the measured link full.
    /// </summary>
    Auto,

    /// <summary>
    /// Messages per second: the lower of the CPU-bound rate (cores ÷ CPU per message, compression included) and the
    /// link-bound rate (link rate ÷ bytes on the wire), as for a loaded server.
    /// </summary>
    Throughput,

    /// <summary>
    /// Time of one message: compressing (slower under CPU load), sending the bytes on the wire, and decompressing at
    /// the codec's own speed, as for one caller waiting.
    /// </summary>
    Latency,
}
