using System.Buffers;
using System.Data.Common;
using Surrogate.Reader;

namespace Surrogate;

public static partial class DataSetSerializer
{
    /// <summary>Opens a forward-only reader over a payload in a stream: one result set per table, one row block in
    /// memory at a time, so payloads too big to materialise can be consumed. Deleted rows are skipped and each row
    /// shows its current values.</summary>
    /// <param name="stream">The source; read as the reader advances, and disposed with the reader only if you dispose it yourself.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The reader, positioned before the first row of the first table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid (also thrown later by Read/NextResult).</exception>
    public static DbDataReader CreateReader(Stream stream, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var resolved = options ?? SurrogateOptions.Default;
        return Open(() => new StreamFrameSource(stream, resolved), resolved);
    }

    /// <summary>Opens a forward-only reader over an in-memory payload, read where it is (see the stream overload).</summary>
    /// <param name="payload">The payload; it must stay unchanged while the reader is used.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The reader, positioned before the first row of the first table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid (also thrown later by Read/NextResult).</exception>
    public static DbDataReader CreateReader(ReadOnlyMemory<byte> payload, SurrogateOptions? options = null) =>
        CreateReader(new ReadOnlySequence<byte>(payload), options);

    /// <summary>Opens a forward-only reader over an in-memory payload (see the stream overload).</summary>
    /// <param name="payload">The payload; it must stay valid while the reader is used.</param>
    /// <param name="options">Limits and extra column types; <see cref="SurrogateOptions.Default"/> when null.</param>
    /// <returns>The reader, positioned before the first row of the first table.</returns>
    /// <exception cref="DataSetSurrogateException">The payload is invalid (also thrown later by Read/NextResult).</exception>
    public static DbDataReader CreateReader(in ReadOnlySequence<byte> payload, SurrogateOptions? options = null)
    {
        var resolved = options ?? SurrogateOptions.Default;
        var copy = payload;
        return Open(() => new SequenceFrameSource(copy, resolved), resolved);
    }

    private static SurrogateDataReader Open(Func<FrameSource> createSource, SurrogateOptions options)
    {
        FrameSource source;
        try
        {
            source = createSource();
        }
        catch (Exception ex) when (DataSetSurrogateException.IsInputFailure(ex))
        {
            throw DataSetSurrogateException.Wrap(ex, null, null, null);
        }

        return new SurrogateDataReader(source, options);
    }
}
