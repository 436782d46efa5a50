namespace Surrogate.Compression.Policies;

/// <summary>The adaptive policy's settings, from <see cref="CompressionOptions"/> or (in tests) given directly.</summary>
internal sealed record AdaptiveSettings(
    Arm[] Arms,
    CompressionGoal Goal,
    double ExplorationRate,
    double LinkBytesPerSecond,
    bool MeasureLink,
    double MinSaving,
    double CpuHighWatermark,
    double CpuLowWatermark,
    CompressionDecisionLog? Log,
    bool RawToLocalPeers = true,
    ulong Seed = 0x9E3779B97F4A7C15)
{
    /// <summary>Each key tries the steps next to its choice at least this often while it is in use.</summary>
    public static readonly TimeSpan ExplorationInterval = TimeSpan.FromSeconds(5);

    public static AdaptiveSettings From(CompressionOptions options) => new(
        ArmLadder.Build(options.AdaptiveCodecs), options.Goal, options.ExplorationRate, options.LinkBitsPerSecond / 8.0,
        options.MeasureLink, options.MinSaving, options.CpuHighWatermark, options.CpuLowWatermark, options.DecisionLog, options.RawToLocalPeers);
}
