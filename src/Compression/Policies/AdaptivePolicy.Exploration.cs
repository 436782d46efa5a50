namespace Surrogate.Compression.Policies;

/// <summary>The adaptive policy's exploring of neighbouring steps, and what it assumes of data that looks random.</summary>
internal sealed partial class AdaptivePolicy
{
    /// <summary>
    /// The step to try instead of <paramref name="chosen"/>, or -1: a neighbour (the one tried longest ago) after a
    /// change of link, for a share <see cref="AdaptiveSettings.ExplorationRate"/> of messages (pairs for half as many;
    /// raw alone), or when a neighbour has not been tried for <see cref="AdaptiveSettings.ExplorationInterval"/>. On
    /// data that looks random the steps the entropy check would refuse are passed over: trying them would only send a
    /// message raw.
    /// </summary>
    private int Explore(AdaptiveKey key, int chosen, int cap, long now)
    {
        int below = Neighbour(key, chosen, -1, cap);
        int above = Neighbour(key, chosen, 1, cap);
        if (below < 0 && above < 0)
        {
            return -1;
        }

        long[] tried = key.Estimates.LastTried;
        int stalest = below < 0 ? above : above < 0 ? below : tried[above] <= tried[below] ? above : below;
        if (Link.TakeBurst() || (_settings.ExplorationRate > 0 && key.NextDouble() < _settings.ExplorationRate / 2))
        {
            return stalest;
        }

        return key.Messages > 1 && now - tried[stalest] >= _explorationTicks ? stalest : -1;
    }

    /// <summary>
    /// The next step from <paramref name="from"/> in <paramref name="direction"/> (−1 or 1) up to <paramref name="cap"/>,
    /// passing over the codecs without early abort while the key's data looks random; -1 when there is none.
    /// </summary>
    private int Neighbour(AdaptiveKey key, int from, int direction, int cap)
    {
        int step = from + direction;
        while (step > 0 && step <= cap && key.LooksRandom && !_arms[step].EarlyAbort)
        {
            step += direction;
        }

        return step >= 0 && step <= cap ? step : -1;
    }

    /// <summary>
    /// A sample looked random. On a key's first look every compressed step is assumed to save nothing, until the
    /// first measurement of any step replaces the assumption (a near-random sample of data that still compresses a
    /// little must not hold every level back until each is tried); before a codec without early abort, those steps
    /// count a measurement of no saving.
    /// </summary>
    private void MarkIncompressible(AdaptiveKey key, bool allSteps)
    {
        lock (key.Gate)
        {
            key.LooksRandom = true;
            for (int step = 1; step < _arms.Length; step++)
            {
                if (allSteps)
                {
                    key.Estimates.Assume(step, 1);
                }
                else if (!_arms[step].EarlyAbort)
                {
                    key.Estimates.Observe(step, 1, double.NaN);
                }
            }
        }
    }
}
