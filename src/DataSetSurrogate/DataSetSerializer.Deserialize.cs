using System.Buffers;
using System.Data;
using System.Runtime.CompilerServices;
using Surrogate.Build;
using Surrogate.Wire;

namespace Surrogate;

public static partial class DataSetSerializer
{
    /// <summary>Reads a payload into a new <see cref="DataSet"/> (a DataTable payload gives a DataSet holding that table).</summary>
    /// <param name="payload">The payload, read where it is (an array converts to this overload).</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet, complete; nothing half-built is ever returned.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or violates its own constraints.</exception>
    [OverloadResolutionPriority(1)]
    public static DataSet Deserialize(ReadOnlyMemory<byte> payload, SurrogateOptions? options = null) =>
        Deserialize(new ReadOnlySequence<byte>(payload), options);

    /// <summary>Reads a payload into a new <see cref="DataSet"/>. The payload is first copied into a pooled buffer
    /// (the protobuf reader reads memory, which a span cannot become): pass an array or memory to read it in place.</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet, complete; nothing half-built is ever returned.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or violates its own constraints.</exception>
    public static DataSet Deserialize(ReadOnlySpan<byte> payload, SurrogateOptions? options = null) =>
        WithCopy(payload, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => Deserialize(p, o));

    /// <summary>Reads a payload into a new <see cref="DataSet"/>.</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid or exceeds a limit.</exception>
    public static DataSet Deserialize(in ReadOnlySequence<byte> payload, SurrogateOptions? options = null) =>
        Deserialize(payload, static () => new DataSet(), options);

    /// <summary>Reads a payload from a stream (up to <see cref="SurrogateOptions.MaxTotalBytes"/>) into a new DataSet.</summary>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid or exceeds a limit.</exception>
    public static DataSet Deserialize(Stream stream, SurrogateOptions? options = null) =>
        FromStream(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => Deserialize(p, o));

    /// <summary>Reads a payload from a stream into a new DataSet asynchronously.</summary>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels reading the stream.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid or exceeds a limit.</exception>
    public static ValueTask<DataSet> DeserializeAsync(Stream stream, SurrogateOptions? options = null, CancellationToken cancellationToken = default) =>
        FromStreamAsync(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => Deserialize(p, o), cancellationToken);

    /// <summary>Reads a payload into a new instance of the caller's (typed) DataSet class: its tables, column types,
    /// constraints and relations decide; the payload must match them by name and type.</summary>
    /// <typeparam name="TDataSet">The DataSet class, e.g. a typed DataSet.</typeparam>
    /// <param name="payload">The payload, read where it is.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    [OverloadResolutionPriority(1)]
    public static TDataSet Deserialize<TDataSet>(ReadOnlyMemory<byte> payload, SurrogateOptions? options = null)
        where TDataSet : DataSet, new() => Deserialize(new ReadOnlySequence<byte>(payload), static () => new TDataSet(), options);

    /// <summary>Reads a payload into a new instance of the caller's (typed) DataSet class (copied first: see the
    /// span overload of <see cref="Deserialize(ReadOnlySpan{byte}, SurrogateOptions?)"/>).</summary>
    /// <typeparam name="TDataSet">The DataSet class, e.g. a typed DataSet.</typeparam>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static TDataSet Deserialize<TDataSet>(ReadOnlySpan<byte> payload, SurrogateOptions? options = null)
        where TDataSet : DataSet, new() =>
        WithCopy(payload, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => Deserialize<TDataSet>(p, o));

    /// <summary>Reads a payload into a new instance of the caller's (typed) DataSet class.</summary>
    /// <typeparam name="TDataSet">The DataSet class.</typeparam>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static TDataSet Deserialize<TDataSet>(in ReadOnlySequence<byte> payload, SurrogateOptions? options = null)
        where TDataSet : DataSet, new() => Deserialize(payload, static () => new TDataSet(), options);

    /// <summary>Reads a payload from a stream into a new instance of the caller's (typed) DataSet class.</summary>
    /// <typeparam name="TDataSet">The DataSet class.</typeparam>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static TDataSet Deserialize<TDataSet>(Stream stream, SurrogateOptions? options = null)
        where TDataSet : DataSet, new() =>
        FromStream(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => Deserialize<TDataSet>(p, o));

    /// <summary>Reads a payload from a stream into a new instance of the caller's (typed) DataSet class asynchronously.</summary>
    /// <typeparam name="TDataSet">The DataSet class.</typeparam>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels reading the stream.</param>
    /// <returns>The DataSet.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static ValueTask<TDataSet> DeserializeAsync<TDataSet>(Stream stream, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
        where TDataSet : DataSet, new() =>
        FromStreamAsync(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => Deserialize<TDataSet>(p, o), cancellationToken);

    // The DataSet is made once the payload's header says which locale it defaults to (see DataSetBuilder).
    private static T Deserialize<T>(in ReadOnlySequence<byte> payload, Func<T> create, SurrogateOptions? options)
        where T : DataSet
    {
        var resolved = options ?? SurrogateOptions.Default;
        DataSetBuilder? builder = null;
        PayloadReader.Read(payload, resolved, () => builder = new DataSetBuilder(create, resolved));
        return (T)builder!.DataSet;
    }

    private static T DeserializeTable<T>(in ReadOnlySequence<byte> payload, T target, SurrogateOptions? options)
        where T : DataTable
    {
        var resolved = options ?? SurrogateOptions.Default;
        PayloadReader.Read(payload, resolved, () => new DataSetBuilder(target, resolved));
        return target;
    }

    private delegate T SequenceReader<out T>(in ReadOnlySequence<byte> payload, SurrogateOptions options);

    private static T WithCopy<T>(ReadOnlySpan<byte> payload, SurrogateOptions? options, SequenceReader<T> read)
    {
        var resolved = options ?? SurrogateOptions.Default;
        if (payload.Length > resolved.MaxTotalBytes)
        {
            Throw.Limit("payload bytes", payload.Length, resolved.MaxTotalBytes, nameof(SurrogateOptions.MaxTotalBytes));
        }

        var copy = ArrayPool<byte>.Shared.Rent(payload.Length);
        try
        {
            payload.CopyTo(copy);
            return read(new ReadOnlySequence<byte>(copy, 0, payload.Length), resolved);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(copy);
        }
    }

    private static T FromStream<T>(Stream stream, SurrogateOptions? options, SequenceReader<T> read)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var resolved = options ?? SurrogateOptions.Default;
        using var buffer = new SegmentedBuffer();
        int count;
        while ((count = stream.Read(NextRead(buffer, resolved).Span)) > 0)
        {
            buffer.Advance(count);
            CheckStreamLength(buffer, resolved);
        }

        return read(buffer.AsSequence(), resolved);
    }

    private static async ValueTask<T> FromStreamAsync<T>(Stream stream, SurrogateOptions? options, SequenceReader<T> read, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var resolved = options ?? SurrogateOptions.Default;
        using var buffer = new SegmentedBuffer();
        int count;
        while ((count = await stream.ReadAsync(NextRead(buffer, resolved), cancellationToken).ConfigureAwait(false)) > 0)
        {
            buffer.Advance(count);
            CheckStreamLength(buffer, resolved);
        }

        return read(buffer.AsSequence(), resolved);
    }

    // The free part of the buffer's last segment, cut to one byte past the limit: a payload over the limit is
    // refused as soon as it passes it, without reading or holding the rest.
    private static Memory<byte> NextRead(SegmentedBuffer buffer, SurrogateOptions options)
    {
        var free = buffer.GetMemory();
        return free[..(int)Math.Min(free.Length, options.MaxTotalBytes - buffer.Length + 1)];
    }

    private static void CheckStreamLength(SegmentedBuffer buffer, SurrogateOptions options)
    {
        if (buffer.Length > options.MaxTotalBytes)
        {
            Throw.Limit("payload bytes", buffer.Length, options.MaxTotalBytes, nameof(SurrogateOptions.MaxTotalBytes));
        }
    }
}
