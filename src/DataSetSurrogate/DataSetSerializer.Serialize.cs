using System.Buffers;
using System.IO.Pipelines;
using System.Data;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Serializes ADO.NET <see cref="DataSet"/>, <see cref="DataTable"/> and <see cref="IDataReader"/> data to a compact
/// columnar protobuf payload and reads it back with full fidelity (schema, row states, original values, errors,
/// constraints and relations). See docs/wire-format.md and docs/security.md.
/// </summary>
public static partial class DataSetSerializer
{
    /// <summary>
    /// Writes a DataSet payload straight into the writer's spans, piece by piece: the start, each table's schema, each
    /// row block and the tail are each written into one span asked of the writer (sized for the piece) and advanced
    /// when the piece is complete. A writer that passes on what was advanced once it is asked for more room therefore
    /// holds about one row block, and sees no piece twice.
    /// </summary>
    /// <param name="writer">The destination.</param>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static void Serialize(IBufferWriter<byte> writer, DataSet dataSet, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(dataSet);
        Drain(PayloadWriter.DataSet(writer, dataSet, options ?? SurrogateOptions.Default));
    }

    /// <summary>Writes a DataTable payload (the table alone, without its DataSet's other tables or relations), piece
    /// by piece as the DataSet overload does.</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static void Serialize(IBufferWriter<byte> writer, DataTable table, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(table);
        Drain(PayloadWriter.DataTable(writer, table, options ?? SurrogateOptions.Default));
    }

    /// <summary>Writes every result set of a data reader as a table, piece by piece as the DataSet overload does.</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="reader">The reader, positioned before its first row; it is read to the end.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static void Serialize(IBufferWriter<byte> writer, IDataReader reader, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(reader);
        Drain(DataReaderWriter.Write(writer, reader, options ?? SurrogateOptions.Default));
    }

    /// <summary>Writes a DataSet payload to a new array.</summary>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The payload.</returns>
    public static byte[] Serialize(DataSet dataSet, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(dataSet);
        using var buffer = new SegmentedBuffer();
        Drain(PayloadWriter.DataSet(buffer, dataSet, options ?? SurrogateOptions.Default));
        return buffer.ToArray();
    }

    /// <summary>Writes a DataTable payload to a new array.</summary>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The payload.</returns>
    public static byte[] Serialize(DataTable table, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(table);
        using var buffer = new SegmentedBuffer();
        Drain(PayloadWriter.DataTable(buffer, table, options ?? SurrogateOptions.Default));
        return buffer.ToArray();
    }

    /// <summary>Writes every result set of a data reader to a new array.</summary>
    /// <param name="reader">The reader; it is read to the end.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The payload.</returns>
    public static byte[] Serialize(IDataReader reader, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(reader);
        using var buffer = new SegmentedBuffer();
        Drain(DataReaderWriter.Write(buffer, reader, options ?? SurrogateOptions.Default));
        return buffer.ToArray();
    }

    /// <summary>Writes a DataSet payload to a stream, block by block: memory stays bounded by about one row block.</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    public static void Serialize(Stream stream, DataSet dataSet, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(dataSet);
        using var buffer = new SegmentedBuffer();
        ToStream(stream, buffer, PayloadWriter.DataSet(buffer, dataSet, options ?? SurrogateOptions.Default));
    }

    /// <summary>Writes a DataTable payload to a stream, block by block: memory stays bounded by about one row block.</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    public static void Serialize(Stream stream, DataTable table, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(table);
        using var buffer = new SegmentedBuffer();
        ToStream(stream, buffer, PayloadWriter.DataTable(buffer, table, options ?? SurrogateOptions.Default));
    }

    /// <summary>Writes every result set of a data reader to a stream, block by block (memory stays bounded).</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="reader">The reader; it is read to the end.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    public static void Serialize(Stream stream, IDataReader reader, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(reader);
        using var buffer = new SegmentedBuffer();
        ToStream(stream, buffer, DataReaderWriter.Write(buffer, reader, options ?? SurrogateOptions.Default));
    }

    /// <summary>
    /// Writes a DataSet payload to a stream asynchronously, block by block: each row block is written to the stream
    /// once it is complete, so memory stays bounded by about one row block whatever the row count.
    /// </summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="dataSet">The DataSet to write; it must not change until the task completes.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels the write between row blocks and the writes to the stream.</param>
    /// <returns>A task that completes when the payload is written.</returns>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static async ValueTask SerializeAsync(Stream stream, DataSet dataSet, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(dataSet);
        using var buffer = new SegmentedBuffer();
        await ToStreamAsync(stream, buffer, PayloadWriter.DataSet(buffer, dataSet, options ?? SurrogateOptions.Default), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Writes a DataTable payload to a stream asynchronously, block by block (see the DataSet overload).</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="table">The table to write; it must not change until the task completes.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels the write between row blocks and the writes to the stream.</param>
    /// <returns>A task that completes when the payload is written.</returns>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static async ValueTask SerializeAsync(Stream stream, DataTable table, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(table);
        using var buffer = new SegmentedBuffer();
        await ToStreamAsync(stream, buffer, PayloadWriter.DataTable(buffer, table, options ?? SurrogateOptions.Default), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Writes every result set of a data reader to a stream asynchronously, block by block: the (synchronous) reader is
    /// drained on a dedicated thread into a bounded pipe that is copied to the stream as it fills, so memory stays
    /// bounded by about one megabyte plus one row block whatever the row count.
    /// </summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="reader">The reader; it is read to the end, on another thread.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels the copy to the stream; the writing thread then stops at its next write.</param>
    /// <returns>A task that completes when the payload is written.</returns>
    public static async ValueTask SerializeAsync(Stream stream, IDataReader reader, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(reader);
        var resolved = options ?? SurrogateOptions.Default;
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: StreamingPipeBytes, resumeWriterThreshold: StreamingPipeBytes / 2, useSynchronizationContext: false));
        var producer = Task.Factory.StartNew(
            () =>
            {
                // The pipe's stream blocks this thread while the pipe is full: back-pressure from the destination.
                using var input = new PipeWriterBlockingStream(pipe.Writer);
                try
                {
                    Serialize(input, reader, resolved);
                    pipe.Writer.Complete();
                }
                catch (Exception ex)
                {
                    pipe.Writer.Complete(ex);
                    throw;
                }
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach,
            TaskScheduler.Default);
        try
        {
            await pipe.Reader.CopyToAsync(stream, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            // Stop the producer (its next write fails) and wait for it, so the reader is not used after we return.
            await pipe.Reader.CompleteAsync().ConfigureAwait(false);
            await producer.ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default).ConfigureAwait(false);
            throw;
        }

        await pipe.Reader.CompleteAsync().ConfigureAwait(false);
        await producer.ConfigureAwait(false);
    }

    private const int StreamingPipeBytes = 1 << 20;

    // Pieces smaller than this are gathered before they are written to a stream, so small schemas are not written one by one.
    private const int StreamWriteBytes = 16 * 1024;

    private static void Drain(IEnumerable<bool> pieces)
    {
        foreach (var _ in pieces)
        {
        }
    }

    private static void ToStream(Stream stream, SegmentedBuffer buffer, IEnumerable<bool> pieces)
    {
        foreach (var _ in pieces)
        {
            if (buffer.Length >= StreamWriteBytes)
            {
                buffer.WriteTo(stream);
                buffer.Reset();
            }
        }

        buffer.WriteTo(stream);
    }

    private static async ValueTask ToStreamAsync(Stream stream, SegmentedBuffer buffer, IEnumerable<bool> pieces, CancellationToken cancellationToken)
    {
        foreach (var _ in pieces)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (buffer.Length >= StreamWriteBytes)
            {
                await buffer.WriteToAsync(stream, cancellationToken).ConfigureAwait(false);
                buffer.Reset();
            }
        }

        await buffer.WriteToAsync(stream, cancellationToken).ConfigureAwait(false);
    }
}
