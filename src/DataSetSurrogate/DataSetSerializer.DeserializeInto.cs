using System.Buffers;
using System.Data;
using System.Runtime.CompilerServices;
using Surrogate.Build;

namespace Surrogate;

public static partial class DataSetSerializer
{
    /// <summary>Loads a payload into a DataSet the caller created, which must hold no rows. Tables it declares are
    /// used as they are (the caller's type decides); tables it lacks are created. On failure the target's rows are
    /// cleared and it should be discarded.</summary>
    /// <param name="payload">The payload, read where it is.</param>
    /// <param name="target">The DataSet to fill.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the target.</exception>
    [OverloadResolutionPriority(1)]
    public static void DeserializeInto(ReadOnlyMemory<byte> payload, DataSet target, SurrogateOptions? options = null) =>
        DeserializeInto(new ReadOnlySequence<byte>(payload), target, options);

    /// <summary>Loads a payload into a DataSet the caller created (copied first: see
    /// <see cref="Deserialize(ReadOnlySpan{byte}, SurrogateOptions?)"/>).</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="target">The DataSet to fill.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the target.</exception>
    public static void DeserializeInto(ReadOnlySpan<byte> payload, DataSet target, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(target);
        WithCopy(payload, options, (in ReadOnlySequence<byte> p, SurrogateOptions o) =>
        {
            DeserializeInto(p, target, o);
            return target;
        });
    }

    /// <summary>Loads a payload into a DataSet the caller created (see the span overload).</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="target">The DataSet to fill.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the target.</exception>
    public static void DeserializeInto(in ReadOnlySequence<byte> payload, DataSet target, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(target);
        var resolved = options ?? SurrogateOptions.Default;
        PayloadReader.Read(payload, resolved, () => new DataSetBuilder(target, resolved));
    }

    /// <summary>Loads a one-table payload into a DataTable the caller created, which must hold no rows. A table with
    /// columns keeps them (the payload must match by name and type); an empty one gets the payload's schema. On
    /// failure the target's rows are cleared and it should be discarded.</summary>
    /// <param name="payload">The payload, read where it is.</param>
    /// <param name="target">The table to fill.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the target.</exception>
    [OverloadResolutionPriority(1)]
    public static void DeserializeInto(ReadOnlyMemory<byte> payload, DataTable target, SurrogateOptions? options = null) =>
        DeserializeInto(new ReadOnlySequence<byte>(payload), target, options);

    /// <summary>Loads a one-table payload into a DataTable the caller created (copied first: see
    /// <see cref="Deserialize(ReadOnlySpan{byte}, SurrogateOptions?)"/>).</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="target">The table to fill.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the target.</exception>
    public static void DeserializeInto(ReadOnlySpan<byte> payload, DataTable target, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(target);
        WithCopy(payload, options, (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, target, o));
    }

    /// <summary>Loads a one-table payload into a DataTable the caller created (see the span overload).</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="target">The table to fill.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the target.</exception>
    public static void DeserializeInto(in ReadOnlySequence<byte> payload, DataTable target, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(target);
        DeserializeTable(payload, target, options);
    }
}
