using System.Diagnostics;

namespace Surrogate.Compression.Policies;

/// <summary>
/// The highest rate the link carried: the lower of two busy 1-second send windows in a row, or one window while calls
/// queued on a full link (<see cref="LinkEstimator.Full"/>: its rate is the link's), each of at least
/// <see cref="MinMessages"/> messages, counted for <see cref="HeldFor"/> and raised by any higher one. The send rate is
/// the current choice's own: a choice that compresses more sends fewer bytes, and an estimate that fell with it made
/// compressing more look better still (zstd at a self-made 3–53 MB/s on a 125 MB/s link, docs/compression.md). What
/// the link carried is a lower bound that a choice sending fewer bytes does not lower.
/// <para>
/// A window counts bytes as the transport takes them, not as the link delivers them; the two differ by what is queued,
/// a few messages. A window of a few large messages on a slow link can carry twice the link's rate by that alone, so it
/// holds nothing. The round-trip fit's change-of-link test does not drop the rate held (on a busy 1 Gbit/s link stalls
/// fired that test several times in a 5 s window); a busy window of any size that carries less than
/// 1/<see cref="DropBelow"/> of it does: no step of the ladder cuts a message's bytes that much at the same rate of
/// messages, and a link slowed from 100 to 1.5 Mbit/s carries 1/66. A link that slows by less is believed at its old
/// rate until the hold runs out.
/// </para>
/// </summary>
internal sealed class CarriedRate
{
    /// <summary>How long the highest rate carried counts without a window that carries as much.</summary>
    public static readonly TimeSpan HeldFor = TimeSpan.FromSeconds(60);

    /// <summary>A busy window below the held rate divided by this drops it.</summary>
    public const int DropBelow = 8;

    /// <summary>Messages a window needs before its rate can be held (what is queued is then a small share of it).</summary>
    public const int MinMessages = 32;

    private readonly long _heldTicks = (long)(HeldFor.TotalSeconds * Stopwatch.Frequency);
    private double _rate = double.NaN;
    private long _at;
    private double _previous = double.NaN;

    /// <summary>The rate held at <paramref name="now"/>; NaN when none.</summary>
    public double At(long now) => !double.IsNaN(_rate) && now - _at <= _heldTicks ? _rate : double.NaN;

    /// <summary>
    /// A send window ended: it carried <paramref name="rate"/> (NaN: it spanned an idle stretch) in
    /// <paramref name="messages"/> messages; <paramref name="full"/>: calls queued on the link through it.
    /// </summary>
    public void Window(double rate, long messages, bool full, long now)
    {
        if (!double.IsNaN(_rate) && rate < _rate / DropBelow)
        {
            _rate = double.NaN;
        }

        double window = messages >= MinMessages ? rate : double.NaN;
        double carried = full ? window : Math.Min(window, _previous);
        _previous = window;
        if (!double.IsNaN(carried) && (double.IsNaN(At(now)) || carried >= _rate))
        {
            _rate = carried;
            _at = now;
        }
    }
}
