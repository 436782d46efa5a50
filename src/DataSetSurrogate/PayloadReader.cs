using System.Buffers;
using ProtoBuf;
using Surrogate.Build;
using Surrogate.Schema;
using Surrogate.Wire;

namespace Surrogate;

/// <summary>
/// Reads a whole in-memory payload into a builder. Magic and version must come first; tables and their row blocks follow in order; any
/// failure (truncation, corruption, limits, refused types) becomes a <see cref="DataSetSurrogateException"/> naming
/// the table, column and row block, after the builder's target has been emptied.
/// </summary>
internal static class PayloadReader
{
    public static void Read(in ReadOnlySequence<byte> payload, SurrogateOptions options, Func<DataSetBuilder> createBuilder)
    {
        if (payload.Length > options.MaxTotalBytes)
        {
            Throw.Limit("payload bytes", payload.Length, options.MaxTotalBytes, nameof(SurrogateOptions.MaxTotalBytes));
        }

        DataSetBuilder? builder = null;
        var state = ProtoReader.State.Create(payload, null, null);
        try
        {
            ReadPrologue(ref state);
            builder = createBuilder();
            builder.PayloadBytes = payload.Length;
            ReadBody(ref state, builder, options);
        }
        catch (Exception ex)
        {
            // Whatever failed, the target is left empty; only what the payload caused becomes the library's exception.
            builder?.Abandon();
            if (!DataSetSurrogateException.IsInputFailure(ex))
            {
                throw;
            }

            var current = builder?.Current;
            throw DataSetSurrogateException.Wrap(ex, current?.Table.TableName, null, current?.BlockIndex);
        }
        finally
        {
            state.Dispose();
        }
    }

    /// <summary>Reads magic, version and kind, which must be the first three fields in that order.</summary>
    public static void ReadPrologue(ref ProtoReader.State state)
    {
        if (state.ReadFieldHeader() != PayloadField.Magic || state.WireType != WireType.Fixed32 || state.ReadUInt32() != PayloadField.MagicValue)
        {
            Throw.Invalid("The input is not a DataSet surrogate payload (magic number missing).");
        }

        if (state.ReadFieldHeader() != PayloadField.Version)
        {
            Throw.Invalid("The payload has no format version after its magic number.");
        }

        var version = state.ReadInt64();
        if (version != PayloadField.CurrentVersion)
        {
            Throw.Invalid($"The payload has format version {version}; this library reads version {PayloadField.CurrentVersion} only.");
        }

        if (state.ReadFieldHeader() != PayloadField.Kind)
        {
            Throw.Invalid("The payload does not say what it holds (kind missing).");
        }

        CheckKind(state.ReadInt32());
    }

    /// <summary>Refuses a kind this library does not write (every kind reads the same way).</summary>
    public static void CheckKind(int kind)
    {
        if (!Enum.IsDefined((PayloadKind)kind))
        {
            Throw.Invalid($"The payload holds an unknown kind {kind}.");
        }
    }

    private static void ReadBody(ref ProtoReader.State state, DataSetBuilder builder, SurrogateOptions options)
    {
        TailModel? tail = null;
        var constraints = 0;
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            if (tail is not null)
            {
                Throw.Invalid("The payload continues after its tail.");
            }

            switch (field)
            {
                case PayloadField.Header:
                    builder.OnHeader(SchemaReader.ReadHeader(ref state, options));
                    break;
                case PayloadField.Table:
                    builder.OnTable(SchemaReader.ReadTable(ref state, options, ref constraints));
                    break;
                case PayloadField.Rows:
                    builder.ReadBlock(ref state);
                    break;
                case PayloadField.Tail:
                    tail = SchemaReader.ReadTail(ref state, options, builder.TableCount, constraints);
                    break;
                default:
                    Throw.Invalid($"The payload holds an unknown field {field}.");
                    break;
            }
        }

        // The tail is always written last: a payload cut at a field boundary has none, and must not load.
        builder.Complete(tail ?? Throw.Invalid<TailModel>("The payload is truncated: it ends before its tail."));
    }
}
