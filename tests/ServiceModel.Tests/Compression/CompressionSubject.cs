using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// An encoder the suite's single-encoder cases run against (small and incompressible messages, limits, mismatched
/// peers, damaged replies, streamed transfer): zstd at its default level, the adaptive policy, the 2011 rules. Each
/// has its endpoint, one with a 64 KiB decompressed-size limit, and a streamed one.
/// </summary>
public sealed record CompressionSubject(string Name, CompressionVariant Main, CompressionVariant Limited, CompressionVariant Streamed)
{
    public static readonly CompressionSubject Zstd = new("zstd", CompressionVariant.Zstd, CompressionVariant.Limited, CompressionVariant.StreamedZstd);

    public static readonly CompressionSubject Adaptive = new("adaptive", CompressionVariant.Adaptive, CompressionVariant.AdaptiveLimited, CompressionVariant.StreamedAdaptive);

    public static readonly CompressionSubject Rules2011 = new("rules2011", CompressionVariant.Rules2011, CompressionVariant.Rules2011Limited, CompressionVariant.StreamedRules2011);

    public static IReadOnlyList<CompressionSubject> All { get; } = [Zstd, Adaptive, Rules2011];

    public static TheoryData<string> Names() => new(All.Select(s => s.Name));

    public static CompressionSubject Named(string name) => All.Single(s => s.Name == name);

    public override string ToString() => Name;
}
