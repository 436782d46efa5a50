namespace Surrogate.Perf.Harness.Compression;

/// <summary>
/// The inputs of one contender on one message: the loopback run's uncompressed costs per op (server and client CPU,
/// wire bytes each way) and, from the codec sweep, the encoder's time per message each way and the reply's size
/// after compression. Times in seconds, sizes in bytes.
/// </summary>
public sealed record ModelInputs(double ServerSeconds, double ClientSeconds, double ResponseBytes, double RequestBytes, double CompressSeconds, double DecompressSeconds, double CompressedResponseBytes)
{
    /// <summary>TCP payload per Ethernet frame at MTU 1500 (timestamps on): 1448 of 1514 bytes reach the application.</summary>
    public const double PayloadShare = 1448.0 / 1514.0;

    public double CompressedServerSeconds => ServerSeconds + CompressSeconds;

    public double CompressedClientSeconds => ClientSeconds + DecompressSeconds;

    /// <summary>The uncompressed ops/s at a link of <paramref name="bitsPerSecond"/>: the server's core, the clients' core and the link each cap it.</summary>
    public double UncompressedOps(double bitsPerSecond) => Throughput(ServerSeconds, ClientSeconds, ResponseBytes, bitsPerSecond);

    /// <summary>This contender's ops/s at that link.</summary>
    public double CompressedOps(double bitsPerSecond) => Throughput(CompressedServerSeconds, CompressedClientSeconds, CompressedResponseBytes, bitsPerSecond);

    /// <summary>
    /// Throughput break-even (several clients, the server saturates): compression wins below the link speed at which
    /// uncompressed replies fill the link at the compressed contender's CPU cap, B* = s0 · min(1/t_srv, 1/t_cli);
    /// +∞ when compressing costs no CPU cap at all, 0 when it saves no bytes.
    /// </summary>
    public double ThroughputBreakEvenBits()
    {
        if (CompressedResponseBytes >= ResponseBytes)
        {
            return 0;
        }

        double compressedCap = Math.Min(1 / CompressedServerSeconds, 1 / CompressedClientSeconds);
        double uncompressedCap = Math.Min(1 / ServerSeconds, 1 / ClientSeconds);
        return compressedCap >= uncompressedCap ? double.PositiveInfinity : ResponseBytes * compressedCap * 8 / PayloadShare;
    }

    /// <summary>
    /// Latency break-even (one call in flight): compressing pays when the wire time it saves exceeds the codec time it
    /// adds, B* = (s0 − s_L) / (t_compress + t_decompress) (compression notes §2).
    /// </summary>
    public double LatencyBreakEvenBits() => CompressedResponseBytes >= ResponseBytes
        ? 0
        : (ResponseBytes - CompressedResponseBytes) * 8 / PayloadShare / (CompressSeconds + DecompressSeconds);

    /// <summary>One call in flight on loopback: the uncompressed call's time plus the codec's time each way.</summary>
    public static double OneCallOps(double uncompressedOps, double compressSeconds, double decompressSeconds) =>
        1 / ((1 / uncompressedOps) + compressSeconds + decompressSeconds);

    private static double Throughput(double serverSeconds, double clientSeconds, double responseBytes, double bitsPerSecond) =>
        Math.Min(Math.Min(1 / serverSeconds, 1 / clientSeconds), bitsPerSecond / 8 * PayloadShare / responseBytes);
}

/// <summary>The model's view of one contender on one message: break-even speeds, and predicted against measured ops/s per link.</summary>
public sealed record ModelRow(
    string Contender,
    string Class,
    int Size,
    ModelInputs Inputs,
    double ThroughputBreakEvenBits,
    double LatencyBreakEvenBits,
    double? LoopbackPredictedOps,
    double? LoopbackMeasuredOps,
    IReadOnlyList<ModelLinkCheck> Links);

/// <summary>
/// One shaped link in the cross-check: the model's ops/s for this contender and for uncompressed, the measured ones,
/// and whether the model's verdict (compressing wins below B*) matches what the shaped run measured.
/// </summary>
public sealed record ModelLinkCheck(string Link, double BitsPerSecond, double PredictedOps, double PredictedUncompressedOps, double? MeasuredOps, double? MeasuredUncompressedOps)
{
    public bool PredictedWin => PredictedOps > PredictedUncompressedOps;

    public bool? MeasuredWin => MeasuredOps is { } m && MeasuredUncompressedOps is { } u ? m > u : null;
}

/// <summary>The fitted model over every contender that compresses, message class and size.</summary>
public sealed record BenchModel(IReadOnlyList<ModelRow> Rows, IReadOnlyList<double> LinkBits)
{
    /// <summary>Link speeds the model predicts for when the run measured none: the 2011 links and the slow one.</summary>
    public static readonly IReadOnlyList<(string Name, double Bits)> DefaultLinks = [("1gbit", 1e9), ("100mbit", 1e8), ("1.5mbit", 1.5e6)];

    /// <summary>
    /// Fits the model from the loopback cells (uncompressed costs) and the sweep (codec time and size); null with the
    /// reason when the run lacks them.
    /// </summary>
    public static (BenchModel? Model, string? Missing) Fit(
        IReadOnlyList<BenchCell> cells, IReadOnlyList<SweepPoint> sweep, IReadOnlyList<Contender> contenders, IReadOnlyList<BenchLinkReport> links)
    {
        var shaped = links.Where(l => l.BitsPerSecond is not null && l.DefaultLoad).Select(l => (l.Name, Bits: (double)l.BitsPerSecond!.Value)).ToList();
        IReadOnlyList<(string Name, double Bits)> modelLinks = shaped.Count > 0 ? shaped : DefaultLinks;
        var rows = new List<ModelRow>();
        foreach (BenchCell baseline in cells.Where(c => c.Link == BenchLink.LoopbackName && c.Contender == ContenderCatalog.UncompressedName))
        {
            foreach (Contender contender in contenders.Where(c => c.ModelCodec is not null))
            {
                var (codec, level) = contender.ModelCodec!.Value;
                SweepPoint? point = sweep.FirstOrDefault(p => p.Class == baseline.Class && p.Size == baseline.Size && p.Codec == codec.ToString() && p.Level == level);
                if (point is null)
                {
                    continue;
                }

                var inputs = new ModelInputs(baseline.ServerCpuMs / 1000, baseline.ClientCpuMs / 1000, baseline.ResponseBytes, baseline.RequestBytes,
                    point.CompressMs / 1000, point.DecompressMs / 1000, baseline.ResponseBytes - point.MessageBytes + point.FrameBytes);
                BenchCell? loopback = Cell(cells, BenchLink.LoopbackName, contender.Name, baseline);
                var checks = modelLinks.Select(link => new ModelLinkCheck(link.Name, link.Bits, inputs.CompressedOps(link.Bits), inputs.UncompressedOps(link.Bits),
                    Cell(cells, link.Name, contender.Name, baseline)?.OpsPerSecond, Cell(cells, link.Name, ContenderCatalog.UncompressedName, baseline)?.OpsPerSecond)).ToList();
                rows.Add(new ModelRow(contender.Name, baseline.Class, baseline.Size, inputs, inputs.ThroughputBreakEvenBits(), inputs.LatencyBreakEvenBits(),
                    ModelInputs.OneCallOps(baseline.OpsPerSecond, inputs.CompressSeconds, inputs.DecompressSeconds), loopback?.OpsPerSecond, checks));
            }
        }

        if (rows.Count == 0)
        {
            return (null, cells.Any(c => c.Link == BenchLink.LoopbackName && c.Contender == ContenderCatalog.UncompressedName)
                ? "no contender that compresses was swept"
                : "the model needs the loopback run's uncompressed cells (add loopback to --links)");
        }

        return (new BenchModel(rows, [.. modelLinks.Select(l => l.Bits)]), null);
    }

    private static BenchCell? Cell(IReadOnlyList<BenchCell> cells, string link, string contender, BenchCell like) =>
        cells.FirstOrDefault(c => c.Link == link && c.Contender == contender && c.Class == like.Class && c.Size == like.Size);
}
