using System.Buffers;
using System.IO.Pipelines;
using System.Data;
using ProtoBuf;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Serializes ADO.NET <see cref="DataSet"/>, <see cref="DataTable"/> and <see cref="IDataReader"/> data to a compact
/// columnar protobuf payload and reads it back with full fidelity (schema, row states, original values, errors,
/// constraints and relations). See docs/wire-format.md and docs/security.md.
/// </summary>
public static partial class DataSetSerializer
{
    /// <summary>Writes a DataSet payload.</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static void Serialize(IBufferWriter<byte> writer, DataSet dataSet, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(dataSet);
        Write(writer, dataSet, options ?? SurrogateOptions.Default, static (ref ProtoWriter.State s, (DataSet D, SurrogateOptions O) a) =>
            PayloadWriter.WriteDataSet(ref s, a.D, a.O));
    }

    /// <summary>Writes a DataTable payload (the table alone, without its DataSet's other tables or relations).</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static void Serialize(IBufferWriter<byte> writer, DataTable table, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(table);
        Write(writer, table, options ?? SurrogateOptions.Default, static (ref ProtoWriter.State s, (DataTable T, SurrogateOptions O) a) =>
            PayloadWriter.WriteTable(ref s, a.T, a.O));
    }

    /// <summary>Writes every result set of a data reader as a table, streaming in row blocks.</summary>
    /// <param name="writer">The destination.</param>
    /// <param name="reader">The reader, positioned before its first row; it is read to the end.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <exception cref="DataSetSurrogateException">A value or column type cannot be written.</exception>
    public static void Serialize(IBufferWriter<byte> writer, IDataReader reader, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(reader);
        Write(writer, reader, options ?? SurrogateOptions.Default, static (ref ProtoWriter.State s, (IDataReader R, SurrogateOptions O) a) =>
            DataReaderWriter.Write(ref s, a.R, a.O));
    }

    /// <summary>Writes a DataSet payload to a new array.</summary>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The payload.</returns>
    public static byte[] Serialize(DataSet dataSet, SurrogateOptions? options = null)
        => ToArray(dataSet, options, static (b, v, o) => Serialize(b, v, o));

    /// <summary>Writes a DataTable payload to a new array.</summary>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The payload.</returns>
    public static byte[] Serialize(DataTable table, SurrogateOptions? options = null)
        => ToArray(table, options, static (b, v, o) => Serialize(b, v, o));

    /// <summary>Writes every result set of a data reader to a new array.</summary>
    /// <param name="reader">The reader; it is read to the end.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The payload.</returns>
    public static byte[] Serialize(IDataReader reader, SurrogateOptions? options = null)
        => ToArray(reader, options, static (b, v, o) => Serialize(b, v, o));

    /// <summary>Writes a DataSet payload to a stream.</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    public static void Serialize(Stream stream, DataSet dataSet, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(dataSet);
        Write(stream, dataSet, options ?? SurrogateOptions.Default, static (ref ProtoWriter.State s, (DataSet D, SurrogateOptions O) a) =>
            PayloadWriter.WriteDataSet(ref s, a.D, a.O));
    }

    /// <summary>Writes a DataTable payload to a stream.</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    public static void Serialize(Stream stream, DataTable table, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(table);
        Write(stream, table, options ?? SurrogateOptions.Default, static (ref ProtoWriter.State s, (DataTable T, SurrogateOptions O) a) =>
            PayloadWriter.WriteTable(ref s, a.T, a.O));
    }

    /// <summary>Writes every result set of a data reader to a stream, block by block (memory stays bounded).</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="reader">The reader; it is read to the end.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    public static void Serialize(Stream stream, IDataReader reader, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(reader);
        Write(stream, reader, options ?? SurrogateOptions.Default, static (ref ProtoWriter.State s, (IDataReader R, SurrogateOptions O) a) =>
            DataReaderWriter.Write(ref s, a.R, a.O));
    }

    /// <summary>Writes a DataSet payload to a stream asynchronously (the payload is built in memory, then copied).</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="dataSet">The DataSet to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels the copy to the stream.</param>
    /// <returns>A task that completes when the payload is written.</returns>
    public static async ValueTask SerializeAsync(Stream stream, DataSet dataSet, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        using var buffer = new PooledBufferWriter(4096);
        Serialize(buffer, dataSet, options);
        await stream.WriteAsync(buffer.WrittenMemory, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Writes a DataTable payload to a stream asynchronously (the payload is built in memory, then copied).</summary>
    /// <param name="stream">The destination; it is not closed.</param>
    /// <param name="table">The table to write.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <param name="cancellationToken">Cancels the copy to the stream.</param>
    /// <returns>A task that completes when the payload is written.</returns>
    public static async ValueTask SerializeAsync(Stream stream, DataTable table, SurrogateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        using var buffer = new PooledBufferWriter(4096);
        Serialize(buffer, table, options);
        await stream.WriteAsync(buffer.WrittenMemory, cancellationToken).ConfigureAwait(false);
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

    private static byte[] ToArray<T>(T source, SurrogateOptions? options, Action<IBufferWriter<byte>, T, SurrogateOptions?> serialize)
    {
        var buffer = ProtoWrite.RentScratch();
        try
        {
            serialize(buffer, source, options);
            return buffer.WrittenSpan.ToArray();
        }
        finally
        {
            ProtoWrite.ReturnScratch(buffer);
        }
    }

    private static void Write<T>(IBufferWriter<byte> writer, T source, SurrogateOptions options, MessageBody<(T, SurrogateOptions)> body)
    {
        var state = ProtoWriter.State.Create(writer, null, null);
        Run(ref state, source, options, body);
    }

    private static void Write<T>(Stream stream, T source, SurrogateOptions options, MessageBody<(T, SurrogateOptions)> body)
    {
        var state = ProtoWriter.State.Create(stream, null, null);
        Run(ref state, source, options, body);
    }

    private static void Run<T>(ref ProtoWriter.State state, T source, SurrogateOptions options, MessageBody<(T, SurrogateOptions)> body)
    {
        try
        {
            body(ref state, (source, options));
            state.Close();
        }
        catch
        {
            // Disposing an unflushed writer throws, which would hide the real failure.
            state.Abandon();
            throw;
        }
        finally
        {
            state.Dispose();
        }
    }
}
