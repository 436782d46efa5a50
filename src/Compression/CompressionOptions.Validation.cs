namespace Surrogate.Compression;

public sealed partial record CompressionOptions
{
    /// <summary>Throws when a setting is out of range.</summary>
    /// <exception cref="ArgumentException">A setting is out of range; the message names it.</exception>
    public void Validate()
    {
        if (!Enum.IsDefined(Policy))
        {
            throw new ArgumentException($"CompressionOptions.Policy {(int)Policy} is not a policy.", nameof(Policy));
        }

        if (!Enum.IsDefined(Codec))
        {
            throw new ArgumentException($"CompressionOptions.Codec {(int)Codec} is not a codec.", nameof(Codec));
        }

        if (Level is int level && !Levels(Codec).Contains(level))
        {
            string hint = level == 1 && DefaultLevel(Codec) == 6
                ? " Level 1 is zlib-ng's deflate_quick, which expands small messages; use 2."
                : string.Empty;
            throw new ArgumentException(
                $"CompressionOptions.Level {level} is not offered for {Codec}; use one of {string.Join(", ", Levels(Codec))}.{hint}", nameof(Level));
        }

        if (MinMessageSize < 0)
        {
            throw new ArgumentException($"CompressionOptions.MinMessageSize must not be negative (was {MinMessageSize}).", nameof(MinMessageSize));
        }

        if (MaxDecompressedSize is long max && (max < 1 || max > int.MaxValue))
        {
            throw new ArgumentException(
                $"CompressionOptions.MaxDecompressedSize must be between 1 and {int.MaxValue} (was {max}): a buffered message is one array.", nameof(MaxDecompressedSize));
        }

        ValidateAdaptive();
        ValidateRules2011();
    }

    private void ValidateAdaptive()
    {
        if (!Enum.IsDefined(Goal))
        {
            throw new ArgumentException($"CompressionOptions.Goal {(int)Goal} is not a goal.", nameof(Goal));
        }

        if (AdaptiveCodecs is null || AdaptiveCodecs.Count == 0 || AdaptiveCodecs.Any(c => !Enum.IsDefined(c)) || AdaptiveCodecs.Distinct().Count() != AdaptiveCodecs.Count)
        {
            throw new ArgumentException("CompressionOptions.AdaptiveCodecs must name at least one codec, each once.", nameof(AdaptiveCodecs));
        }

        Range(ExplorationRate, 0, 0.5, nameof(ExplorationRate));
        Range(MinSaving, 0, 0.9, nameof(MinSaving));
        Range(CpuHighWatermark, 0.05, 1, nameof(CpuHighWatermark));
        Range(CpuLowWatermark, 0, CpuHighWatermark, nameof(CpuLowWatermark));
        if (CpuLowWatermark >= CpuHighWatermark)
        {
            throw new ArgumentException(
                $"CompressionOptions.CpuLowWatermark ({CpuLowWatermark}) must be below CpuHighWatermark ({CpuHighWatermark}).", nameof(CpuLowWatermark));
        }

        if (LinkBitsPerSecond is < 8_000 or > 100_000_000_000)
        {
            throw new ArgumentException(
                $"CompressionOptions.LinkBitsPerSecond must be between 8,000 and 100,000,000,000 (was {LinkBitsPerSecond}).", nameof(LinkBitsPerSecond));
        }
    }

    private void ValidateRules2011()
    {
        if (LevelThresholds is not { Count: 2 } thresholds || thresholds[0] < 0 || thresholds[1] < thresholds[0])
        {
            throw new ArgumentException(
                "CompressionOptions.LevelThresholds must be two sizes, the normal level's and then the maximum level's, not negative and in order.", nameof(LevelThresholds));
        }

        Range(CpuDisableLimit, 0.05, 1, nameof(CpuDisableLimit));
        Range(CompressionRatioDisableLimit, 0.05, 1, nameof(CompressionRatioDisableLimit));
    }

    private static void Range(double value, double min, double max, string name)
    {
        if (!(value >= min && value <= max))
        {
            throw new ArgumentException($"CompressionOptions.{name} must be between {min} and {max} (was {value}).", name);
        }
    }
}
