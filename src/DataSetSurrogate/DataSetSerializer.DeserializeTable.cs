using System.Buffers;
using System.Data;
using System.Runtime.CompilerServices;

namespace Surrogate;

public static partial class DataSetSerializer
{
    /// <summary>Reads a one-table payload (DataTable, data reader with one result set, or DataSet with exactly one
    /// table) into a new standalone <see cref="DataTable"/>.</summary>
    /// <param name="payload">The payload, read where it is (an array converts to this overload).</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or holds more than one table.</exception>
    [OverloadResolutionPriority(1)]
    public static DataTable DeserializeTable(ReadOnlyMemory<byte> payload, SurrogateOptions? options = null) =>
        DeserializeTable(new ReadOnlySequence<byte>(payload), new DataTable(), options);

    /// <summary>Reads a one-table payload into a new standalone <see cref="DataTable"/> (copied first: see
    /// <see cref="Deserialize(ReadOnlySpan{byte}, SurrogateOptions?)"/>).</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or holds more than one table.</exception>
    public static DataTable DeserializeTable(ReadOnlySpan<byte> payload, SurrogateOptions? options = null) =>
        WithCopy(payload, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, new DataTable(), o));

    /// <summary>Reads a one-table payload into a new standalone <see cref="DataTable"/>.</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or holds more than one table.</exception>
    public static DataTable DeserializeTable(in ReadOnlySequence<byte> payload, SurrogateOptions? options = null) =>
        DeserializeTable(payload, new DataTable(), options);

    /// <summary>Reads a one-table payload from a stream (up to MaxTotalBytes) into a new standalone table.</summary>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or holds more than one table.</exception>
    public static DataTable DeserializeTable(Stream stream, SurrogateOptions? options = null) =>
        FromStream(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, new DataTable(), o));

    /// <summary>Reads a one-table payload from a stream into a new standalone table asynchronously.</summary>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels reading the stream.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or holds more than one table.</exception>
    public static ValueTask<DataTable> DeserializeTableAsync(Stream stream, SurrogateOptions? options = null, CancellationToken cancellationToken = default) =>
        FromStreamAsync(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, new DataTable(), o), cancellationToken);

    /// <summary>Reads a one-table payload into a new instance of the caller's (typed) table class, whose columns
    /// decide; the payload must match them by name and type.</summary>
    /// <typeparam name="TTable">The table class.</typeparam>
    /// <param name="payload">The payload, read where it is.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    [OverloadResolutionPriority(1)]
    public static TTable DeserializeTable<TTable>(ReadOnlyMemory<byte> payload, SurrogateOptions? options = null)
        where TTable : DataTable, new() => DeserializeTable(new ReadOnlySequence<byte>(payload), new TTable(), options);

    /// <summary>Reads a one-table payload into a new instance of the caller's (typed) table class (copied first: see
    /// <see cref="Deserialize(ReadOnlySpan{byte}, SurrogateOptions?)"/>).</summary>
    /// <typeparam name="TTable">The table class.</typeparam>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static TTable DeserializeTable<TTable>(ReadOnlySpan<byte> payload, SurrogateOptions? options = null)
        where TTable : DataTable, new() =>
        WithCopy(payload, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, new TTable(), o));

    /// <summary>Reads a one-table payload into a new instance of the caller's (typed) table class.</summary>
    /// <typeparam name="TTable">The table class.</typeparam>
    /// <param name="payload">The payload.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static TTable DeserializeTable<TTable>(in ReadOnlySequence<byte> payload, SurrogateOptions? options = null)
        where TTable : DataTable, new() => DeserializeTable(payload, new TTable(), options);

    /// <summary>Reads a one-table payload from a stream into a new instance of the caller's (typed) table class.</summary>
    /// <typeparam name="TTable">The table class.</typeparam>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static TTable DeserializeTable<TTable>(Stream stream, SurrogateOptions? options = null)
        where TTable : DataTable, new() =>
        FromStream(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, new TTable(), o));

    /// <summary>Reads a one-table payload from a stream into a new instance of the caller's (typed) table class asynchronously.</summary>
    /// <typeparam name="TTable">The table class.</typeparam>
    /// <param name="stream">The source, read to its end; it is not closed.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels reading the stream.</param>
    /// <returns>The table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid, exceeds a limit, or does not match the class.</exception>
    public static ValueTask<TTable> DeserializeTableAsync<TTable>(Stream stream, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
        where TTable : DataTable, new() =>
        FromStreamAsync(stream, options, static (in ReadOnlySequence<byte> p, SurrogateOptions o) => DeserializeTable(p, new TTable(), o), cancellationToken);
}
