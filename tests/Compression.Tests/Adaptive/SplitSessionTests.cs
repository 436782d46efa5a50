using Xunit.Abstractions;

namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// A service that reads each connection through one session encoder and writes its replies through another, as
/// CoreWCF's net.tcp does, with 4 closed-loop clients sharing one shaped link (the benchmark's Part 4 cells), on an
/// injected clock: the replay of what the benchmark showed (the service's link estimate stayed at the 1 Gbit/s prior,
/// so it sent raw or LZ4 on 100 Mbit/s and 1.5 Mbit/s) and of the fix (a reply is timed on the clock of the request it
/// answers).
/// </summary>
public sealed class SplitSessionTests(ITestOutputHelper output)
{
    public static TheoryData<double, long> Links() => new()
    {
        { 1.5e6, 19_500 },    // orders 100
        { 1.5e6, 199_000 },   // orders 1000
        { 100e6, 199_000 },
        { 100e6, 107_800 },   // the DataSet surrogate of 1,000 orders
    };

    [Theory]
    [MemberData(nameof(Links))]
    public void Replies_timed_on_the_requests_clock_measure_the_shared_link_and_compress(double bitsPerSecond, long length)
    {
        ClosedLoopService.Result service = new ClosedLoopService { LinkBitsPerSecond = bitsPerSecond, Length = length }.Run();
        output.WriteLine(service.Summary());
        Assert.NotEqual("prior", service.Source);
        // Four sessions share the link: one session's round trips see a quarter of it, the bytes sent per second all of it.
        Assert.InRange(service.Estimate / (bitsPerSecond / 8), 0.5, 1.1);
        // The model's choices (exploration tries the neighbours) compress with zstd, as the true figures call for.
        Assert.True(service.ModelChoices.All(c => c.StartsWith("zstd-", StringComparison.Ordinal)), service.Summary());
    }

    [Theory]
    [MemberData(nameof(Links))]
    public void Replies_timed_on_the_writing_encoders_own_clock_never_measure_a_round_trip(double bitsPerSecond, long length)
    {
        // What the service did before: the writing encoder's clock never sees a receive, the reading one's never a send.
        ClosedLoopService.Result service = new ClosedLoopService { LinkBitsPerSecond = bitsPerSecond, Length = length, Paired = false }.Run();
        output.WriteLine(service.Summary());
        Assert.Equal("prior", service.Source);
        Assert.Equal(125e6, service.Estimate);
    }
}
