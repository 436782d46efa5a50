namespace Surrogate.Perf.Harness.Latency.Matrix;

/// <summary>Expands a config into its cells: the one-at-a-time variations first, then the cross products, each × sizes, without repeats.</summary>
public static class MatrixPlanner
{
    public static IReadOnlyList<LatencyCell> Plan(LatencyConfig config)
    {
        var cells = new List<LatencyCell>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        void Add(LatencyCell cell)
        {
            if (seen.Add(cell.Key))
            {
                cells.Add(cell);
            }
        }

        BaseCell b = config.Base;
        DimensionValues v = config.Vary;
        var variations = new List<LatencyCell> { b.At(0) };
        variations.AddRange((v.Scope ?? []).Select(x => b.At(0) with { Scope = x }));
        variations.AddRange((v.Binding ?? []).Select(x => b.At(0) with { Binding = x }));
        variations.AddRange((v.Security ?? []).Select(x => b.At(0) with { Security = x }));
        variations.AddRange((v.Instancing ?? []).Select(x => b.At(0) with { Instancing = x }));
        variations.AddRange((v.CallMode ?? []).Select(x => b.At(0) with { CallMode = x }));
        variations.AddRange((v.Serializer ?? []).Select(x => b.At(0) with { Serializer = x }));
        variations.AddRange((v.Data ?? []).Select(x => b.At(0) with { Data = x }));
        variations.AddRange((v.Transfer ?? []).Select(x => b.At(0) with { Transfer = x }));
        variations.AddRange((v.Load ?? []).Select(x => b.At(0) with { Load = x }));
        foreach (LatencyCell series in variations)
        {
            foreach (int size in v.Sizes ?? config.Sizes)
            {
                Add(series with { Size = size });
            }
        }

        foreach (DimensionValues cross in config.Crosses)
        {
            foreach (LatencyCell cell in Cross(b, cross, cross.Sizes ?? config.Sizes))
            {
                Add(cell);
            }
        }

        return cells;
    }

    private static IEnumerable<LatencyCell> Cross(BaseCell b, DimensionValues x, IReadOnlyList<int> sizes) =>
        from scope in x.Scope ?? [b.Scope]
        from binding in x.Binding ?? [b.Binding]
        from security in x.Security ?? [b.Security]
        from instancing in x.Instancing ?? [b.Instancing]
        from callMode in x.CallMode ?? [b.CallMode]
        from serializer in x.Serializer ?? [b.Serializer]
        from data in x.Data ?? [b.Data]
        from transfer in x.Transfer ?? [b.Transfer]
        from load in x.Load ?? [b.Load]
        from size in sizes
        select new LatencyCell(scope, binding, security, instancing, callMode, serializer, data, transfer, load, size);
}
