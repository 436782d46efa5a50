namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// <c>--profile grid</c>: issue 11's grid cut to what a 2-core machine runs in about six hours (three rounds; two and
/// a half with <c>--rounds 1</c>) — the three compressibility classes at 1 KB, 16 KB, 150 KB, 1 MB and the mix, 10
/// and 1,000 orders, both DataSet payloads; loopback, 1gbit, 100mbit and 1.5mbit, each at one client and at
/// <see cref="BenchOptions.Clients"/>;
/// seven static contenders and both policies; and the rate change 100mbit→1.5mbit at 10 s on medium messages.
/// <see cref="BenchOptions.Omissions"/> says what it leaves out; the options given after it still override it.
/// </summary>
public static class GridProfile
{
    public static readonly IReadOnlyList<string> ContenderNames =
        [ContenderCatalog.UncompressedName, "deflate-6", "lz4-0", "zstd-1", "zstd-3", "zstd-9", "brotli-4", ContenderCatalog.AdaptiveName, ContenderCatalog.Rules2011Name];

    public const string RateChange = "100mbit->1.5mbit@10s";

    private const string SlowLink = "1.5mbit";

    public static BenchOptions Apply(BenchOptions options) => options with
    {
        Profile = BenchProfile.Grid,
        Links = [.. BenchOptions.FullLinks.Select(l => BenchLink.Parse(l, null))],
        Contenders = [.. ContenderNames.Select(ContenderCatalog.Get)],
        Classes =
        [
            .. MessageClassCatalog.GridNames.Select(name => new ClassSizes(MessageClassCatalog.Get(name), GridMessages.Sizes)),
            new(MessageClassCatalog.Get(MessageClassCatalog.Orders), [10, 1000]),
            new(MessageClassCatalog.Get("dataset-plain"), [1000]),
            new(MessageClassCatalog.Get("dataset-surrogate"), [1000]),
        ],
        RateChange = Compression.RateChange.Parse(RateChange, null),
        RateChangeClasses = [new(MessageClassCatalog.Get("medium"), [150 * GridMessages.Kilobyte, GridMessages.Mix])],
        LeftOut =
        [
            .. MessageClassCatalog.GridNames.Select(name => new LeftOut(SlowLink, name, 1024 * GridMessages.Kilobyte,
                "left out by the grid profile: an uncompressed 1 MB reply takes 5.6 s on 1.5 Mbit/s (22 s with four clients), longer than the cell's window")),
            new(SlowLink, "dataset-plain", null, "left out by the grid profile: the uncompressed 875 KB plain DataSet takes 4.8 s a reply on 1.5 Mbit/s"),
        ],
        Omissions =
        [
            "static contenders: format-gzip and format-deflate (WCF's CompressionFormat; CoreWCF only, and compressing as deflate-6 does), deflate-2, gzip-6, brotli-1 " +
                "(no faster or smaller than the levels kept, docs/compression.md): each cell's oracle is the best of the 7 static contenders run",
            "orders at 100 (10 and 1,000 bracket it)",
            "on 1.5mbit: the 1 MB grid messages and the plain DataSet (listed under cells not run)",
            "timing: three interleaved rounds of a 2 s warm-up and 2 s per cell (the median round counts) instead of one 10 s warm-up and 20 s; policy contenders are measured soon after they start learning",
            "the rate change: one direction (" + RateChange + ") on medium messages at 150 KB and the mix, at the shaped link's default load only",
        ],
    };
}
