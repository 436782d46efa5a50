using System.Data;
using System.Data.SqlTypes;
using System.Diagnostics.CodeAnalysis;
using ProtoBuf;

namespace Surrogate;

/// <summary>
/// The one exception the codec throws for bad input, refused values and limits: every failure to read or write a
/// payload surfaces as this type, with the table, column and row block involved when known.
/// </summary>
public sealed class DataSetSurrogateException : Exception
{
    /// <summary>Creates an exception with no message.</summary>
    public DataSetSurrogateException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">What went wrong.</param>
    public DataSetSurrogateException(string message)
        : base(message) => Reason = message;

    /// <summary>Creates an exception that wraps the failure that caused it.</summary>
    /// <param name="message">What went wrong.</param>
    /// <param name="innerException">The underlying failure.</param>
    public DataSetSurrogateException(string message, Exception? innerException)
        : base(message, innerException) => Reason = message;

    /// <summary>Creates an exception with the payload position it concerns.</summary>
    /// <param name="message">What went wrong.</param>
    /// <param name="table">The table being read or written, if any.</param>
    /// <param name="column">The column being read or written, if any.</param>
    /// <param name="rowBlock">The zero-based row block of the table, if any.</param>
    /// <param name="innerException">The underlying failure, if any.</param>
    public DataSetSurrogateException(string message, string? table, string? column, int? rowBlock, Exception? innerException = null)
        : base(Describe(message, table, column, rowBlock), innerException)
    {
        Table = table;
        Column = column;
        RowBlock = rowBlock;
        Reason = message;
    }

    /// <summary>The table being read or written when the failure happened, if known.</summary>
    public string? Table { get; }

    /// <summary>The column being read or written when the failure happened, if known.</summary>
    public string? Column { get; }

    /// <summary>The zero-based row block (within its table) being processed, if known.</summary>
    public int? RowBlock { get; }

    /// <summary>The message without the table/column/block suffix, so wrappers can add context once.</summary>
    internal string? Reason { get; }

    /// <summary>
    /// Whether a failure is one the input can cause, to be reported as this exception with its position: the codec's
    /// own refusals, protobuf-net's on malformed bytes (and a stream that ends early), and what System.Data, SqlTypes and
    /// value conversions raise for content they refuse (constraint and name errors, out-of-range or unconvertible values).
    /// <see cref="InvalidOperationException"/> and <see cref="IndexOutOfRangeException"/> count only when protobuf-net
    /// or System.Data threw them (both use them for bad input); thrown anywhere else they come from the codec's own
    /// state. Everything else (<see cref="NullReferenceException"/>, <see cref="ArgumentNullException"/>, a failing
    /// stream or data reader of the caller's) is a bug or the caller's own failure, and surfaces as it is.
    /// </summary>
    internal static bool IsInputFailure(Exception ex) => ex switch
    {
        DataSetSurrogateException or ProtoException or EndOfStreamException or DataException or SqlTypeException => true,
        ArgumentNullException or ObjectDisposedException => false,
        ArgumentException or FormatException or InvalidCastException or OverflowException => true,
        InvalidOperationException or IndexOutOfRangeException => ThrownByInputParser(ex),
        _ => false,
    };

    private static bool ThrownByInputParser(Exception ex)
    {
        var assembly = ex.TargetSite?.Module.Assembly;
        return assembly == typeof(ProtoReader).Assembly || assembly == typeof(DataTable).Assembly;
    }

    /// <summary>Wraps an input failure (<see cref="IsInputFailure"/>) with the position it happened at, keeping context already known.</summary>
    internal static DataSetSurrogateException Wrap(Exception ex, string? table, string? column, int? rowBlock)
    {
        if (ex is DataSetSurrogateException known)
        {
            return new DataSetSurrogateException(known.Reason ?? known.Message, known.Table ?? table, known.Column ?? column, known.RowBlock ?? rowBlock, known.InnerException ?? known);
        }

        return new DataSetSurrogateException($"The payload could not be processed: {ex.Message}", table, column, rowBlock, ex);
    }

    private static string Describe(string message, string? table, string? column, int? rowBlock)
    {
        if (table is null && column is null && rowBlock is null)
        {
            return message;
        }

        var where = new List<string>(3);
        if (table is not null)
        {
            where.Add($"table '{table}'");
        }

        if (column is not null)
        {
            where.Add($"column '{column}'");
        }

        if (rowBlock is not null)
        {
            where.Add($"row block {rowBlock}");
        }

        return $"{message} ({string.Join(", ", where)})";
    }
}

/// <summary>Throw helpers kept out of line so callers stay small.</summary>
internal static class Throw
{
    [DoesNotReturn]
    public static void Invalid(string message) => throw new DataSetSurrogateException(message);

    [DoesNotReturn]
    public static T Invalid<T>(string message) => throw new DataSetSurrogateException(message);

    /// <summary>Refuses a count or length over a limit, naming the <see cref="SurrogateOptions"/> property that sets it.</summary>
    [DoesNotReturn]
    public static void Limit(string what, long value, long limit, string? option) =>
        throw new DataSetSurrogateException($"The payload exceeds a limit: {what} is {value}, the limit is {limit} (SurrogateOptions{(option is null ? "" : "." + option)}).");

    [DoesNotReturn]
    public static void Column(string message, string? table, string? column) =>
        throw new DataSetSurrogateException(message, table, column, null);

    [DoesNotReturn]
    public static void Truncated() => throw new DataSetSurrogateException("The payload is truncated or corrupt.");
}
