using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// The highest rate the link carried, and whether it is the link's capacity or only a lower bound. A send window (1
/// second of bytes handed to the transport, at least <see cref="MinMessages"/> messages) measures the capacity when
/// calls queued through it (<see cref="LinkEstimator.Full"/>) while this process's CPU was below the low watermark and
/// the cores it may not use were not full: what held the calls back was the link, not this process or clients on the
/// machine's other cores (between the watermarks it can be either: on 1 Gbit/s a zstd
/// choice bound by the CPU ran at 84–88% and its 23 MB/s looked like the link's). The capacity is then the higher of
/// that window and the one before, and a capacity held is only lowered by two such windows in a row: in the first
/// seconds of a burst callers queue on cold peers, and such a window (6.7 MB/s on 100 Mbit/s) set a capacity the next
/// busy windows exceeded, which made it a lower bound and the estimate <c>cpu_bound</c> (docs/compression.md, "The
/// first seconds of a burst"). Otherwise the lower of two busy windows in a row is a lower bound. Either counts
/// for <see cref="HeldFor"/>; a higher lower bound replaces it, a window with the CPU busy that carried no more than
/// <see cref="KeptBelow"/> of a capacity but at least <see cref="KeptFrom"/> of it keeps that capacity current: the
/// link was still about full, and the CPU busy with a choice that compresses more does not contradict it. A window
/// well below it does not: a slow peer (cold clients, long round trips) queues calls like a full link and can be
/// mistaken for one while this process's CPU idles; once the CPU is busy and the link carries less, nothing confirms
/// it, and a capacity that held for as long as the load lasted kept a CPU-bound zstd level at 0.70× of LZ4 on
/// 1 Gbit/s. A probe that shows the link full while the CPU is busy (<see cref="Probed"/>) measures the capacity too.
/// <para>
/// Why: the send rate is the current choice's own. A choice that compresses more sends fewer bytes, and an estimate
/// that fell with it made compressing more look better still (zstd at a self-made 3–53 MB/s on a 125 MB/s link,
/// docs/compression.md). A window counts bytes as the transport takes them, not as the link delivers them; the two
/// differ by what is queued, a few messages, so a window of a few large messages on a slow link holds nothing. The
/// round-trip fit's change-of-link test does not drop the rate held (stalls on a busy 1 Gbit/s link fired it several
/// times in 5 s); a busy window of any size that carries less than 1/<see cref="DropBelow"/> of it does: no step of
/// the ladder cuts a message's bytes that much at the same rate of messages, and a link slowed from 100 to 1.5 Mbit/s
/// carries 1/66. A link that slows by less is believed at its old rate until the hold runs out.
/// </para>
/// </summary>
internal sealed class CarriedRate
{
    /// <summary>How long a rate counts without a window that carries (or, for a capacity, is consistent with) it.</summary>
    public static readonly TimeSpan HeldFor = TimeSpan.FromSeconds(60);

    /// <summary>A busy window below the held rate divided by this drops it.</summary>
    public const int DropBelow = 8;

    /// <summary>The share of a capacity a busy window must carry to keep it current.</summary>
    public const double KeptFrom = 0.8;

    /// <summary>
    /// The share of a capacity up to which such a window keeps it (and raises it): windows of a full link scatter a few
    /// percent either side of it, and two a little above it in a row would otherwise make it a lower bound.
    /// </summary>
    public const double KeptBelow = 1.05;

    /// <summary>Messages a window needs before its rate can be held (what is queued is then a small share of it).</summary>
    public const int MinMessages = 32;

    private readonly long _heldTicks = (long)(HeldFor.TotalSeconds * Stopwatch.Frequency);
    private double _rate = double.NaN;
    private long _at;
    private bool _capacity;
    private double _previous = double.NaN;
    private bool _previousMeasured;

    /// <summary>The rate held at <paramref name="now"/>; NaN when none.</summary>
    public double At(long now) => !double.IsNaN(_rate) && now - _at <= _heldTicks ? _rate : double.NaN;

    /// <summary>Whether the rate held at <paramref name="now"/> is the link's capacity, not a lower bound.</summary>
    public bool Capacity(long now) => _capacity && !double.IsNaN(At(now));

    /// <summary>
    /// A probe of the cheapest compressing choice carried <paramref name="rate"/> with the link full
    /// (<see cref="LinkEstimator"/>): the link's capacity, however busy the CPU.
    /// </summary>
    public void Probed(double rate, long now) => (_rate, _at, _capacity) = (rate, now, true);

    /// <summary>
    /// A send window ended: it carried <paramref name="rate"/> (NaN: it spanned an idle stretch) in
    /// <paramref name="messages"/> messages; <paramref name="full"/>: calls queued through it;
    /// <paramref name="cpuBusy"/>: this process's CPU was at or above the low watermark; <paramref name="peersFull"/>:
    /// the machine's cores this process may not use were full.
    /// </summary>
    public void Window(double rate, long messages, bool full, bool cpuBusy, bool peersFull, long now)
    {
        // A link slowed by more than any choice explains: what it carried before, held or the window before, is gone.
        if (rate < _rate / DropBelow)
        {
            _rate = double.NaN;
        }

        if (rate < _previous / DropBelow)
        {
            _previous = double.NaN;
        }

        double window = messages >= MinMessages ? rate : double.NaN;
        double previous = _previous;
        double bound = Math.Min(window, previous);
        bool confirms = _previousMeasured;
        // Calls queued with this process's CPU idle and the other cores full may have waited on clients pinned there
        // (README's grids: 96 MB/s held as the capacity of a 1 Gbit/s link while the clients' core was full, and most
        // likely 9.35 MB/s of a 100 Mbit/s link that carries 11.9), so only a window with room on both measures the link.
        bool linkHeld = full && !cpuBusy && !peersFull;
        _previous = window;
        _previousMeasured = linkHeld && !double.IsNaN(window);
        if (double.IsNaN(window))
        {
            return;
        }

        if (linkHeld)
        {
            // The link carried the window before too, and the capacity held: a full window below them (the first
            // seconds of a burst, while callers queue on cold peers) is no capacity. A link that slowed shows in two.
            double carried = double.IsNaN(previous) ? window : Math.Max(window, previous);
            (_rate, _at, _capacity) = (Capacity(now) && !confirms ? Math.Max(carried, _rate) : carried, now, true);
        }
        else if (Capacity(now) && cpuBusy && window <= KeptBelow * _rate && window >= KeptFrom * _rate)
        {
            (_rate, _at) = (Math.Max(window, _rate), now);
        }
        else if (!double.IsNaN(bound) && (double.IsNaN(At(now)) || bound >= _rate))
        {
            (_rate, _at, _capacity) = (bound, now, false);
        }
    }
}
