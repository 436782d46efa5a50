using System.Buffers;
using System.IO.Pipelines;
using System.Text;

namespace Surrogate.StandInHost.Transport;

/// <summary>Record types, encodings and fault names of the .NET Message Framing protocol [MC-NMF].</summary>
internal static class FramingProtocol
{
    public const byte VersionRecord = 0x00;
    public const byte ModeRecord = 0x01;
    public const byte ViaRecord = 0x02;
    public const byte KnownEncodingRecord = 0x03;
    public const byte ExtensibleEncodingRecord = 0x04;
    public const byte UnsizedEnvelopeRecord = 0x05;
    public const byte SizedEnvelopeRecord = 0x06;
    public const byte EndRecord = 0x07;
    public const byte FaultRecord = 0x08;
    public const byte UpgradeRequestRecord = 0x09;
    public const byte PreambleAckRecord = 0x0B;
    public const byte PreambleEndRecord = 0x0C;

    public const byte SingletonUnsizedMode = 0x01;
    public const byte DuplexMode = 0x02;

    private const string FaultPrefix = "http://schemas.microsoft.com/ws/2006/05/framing/faults/";
    public const string EndpointNotFoundFault = FaultPrefix + "EndpointNotFound";
    public const string ContentTypeInvalidFault = FaultPrefix + "ContentTypeInvalid";
    public const string UnsupportedModeFault = FaultPrefix + "UnsupportedMode";
    public const string UnsupportedVersionFault = FaultPrefix + "UnsupportedVersion";
    public const string MaxMessageSizeExceededFault = FaultPrefix + "MaxMessageSizeExceededFault";
    public const string UpgradeInvalidFault = FaultPrefix + "UpgradeInvalid";

    /// <summary>Longest via or content type accepted in a preamble (the protocol's own default limit).</summary>
    public const int MaxPreambleStringLength = 2048;

    /// <summary>The content type each known-encoding code stands for ([MC-NMF] 2.2.3.4.1).</summary>
    public static string? KnownEncodingContentType(byte code) => code switch
    {
        0x00 => "text/xml; charset=utf-8",
        0x01 => "text/xml; charset=utf-16BE",
        0x02 => "text/xml; charset=utf-16LE",
        0x03 => "application/soap+xml; charset=utf-8",
        0x04 => "application/soap+xml; charset=utf-16BE",
        0x05 => "application/soap+xml; charset=utf-16LE",
        0x06 => "multipart/related",
        0x07 => "application/soap+msbin1",
        0x08 => "application/soap+msbinsession1",
        _ => null,
    };

    /// <summary>Writes a record header: the type byte and, when sized, the 7-bit encoded length.</summary>
    public static void WriteHeader(PipeWriter output, byte recordType, int? size)
    {
        Span<byte> header = output.GetSpan(1);
        header[0] = recordType;
        output.Advance(1);
        if (size is int value)
        {
            WriteSize(output, value);
        }
    }

    /// <summary>Writes a bare 7-bit encoded size (a chunk size inside an unsized envelope).</summary>
    public static void WriteSize(PipeWriter output, int size)
    {
        Span<byte> span = output.GetSpan(5);
        int length = 0;
        uint remaining = (uint)size;
        while (remaining >= 0x80)
        {
            span[length++] = (byte)(remaining | 0x80);
            remaining >>= 7;
        }

        span[length++] = (byte)remaining;
        output.Advance(length);
    }

    /// <summary>Writes a fault record with its UTF-8 fault string.</summary>
    public static void WriteFault(PipeWriter output, string fault)
    {
        byte[] text = Encoding.UTF8.GetBytes(fault);
        WriteHeader(output, FaultRecord, text.Length);
        output.Write(text);
    }
}

/// <summary>Reads framing records from a connection's input pipe.</summary>
internal sealed class FramingReader(PipeReader input)
{
    /// <summary>Reads one byte, or returns -1 at the end of the connection.</summary>
    public async ValueTask<int> ReadByteAsync(CancellationToken cancellationToken)
    {
        ReadResult result = await input.ReadAsync(cancellationToken).ConfigureAwait(false);
        if (result.Buffer.IsEmpty)
        {
            input.AdvanceTo(result.Buffer.End);
            return -1;
        }

        byte value = result.Buffer.FirstSpan[0];
        input.AdvanceTo(result.Buffer.GetPosition(1));
        return value;
    }

    /// <summary>Reads a record size: a 7-bit encoded unsigned integer of at most 5 bytes (at most int.MaxValue).</summary>
    public async ValueTask<int> ReadSizeAsync(CancellationToken cancellationToken)
    {
        long value = 0;
        for (int shift = 0; shift < 35; shift += 7)
        {
            int b = await ReadByteAsync(cancellationToken).ConfigureAwait(false);
            if (b < 0)
            {
                throw new InvalidDataException("The connection ended inside a record size.");
            }

            value |= (long)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return value <= int.MaxValue ? (int)value : throw new InvalidDataException("A record size exceeds int.MaxValue.");
            }
        }

        throw new InvalidDataException("A record size is longer than 5 bytes.");
    }

    /// <summary>Fills <paramref name="destination"/> from the connection, chunk by chunk.</summary>
    public async ValueTask ReadExactlyAsync(Memory<byte> destination, CancellationToken cancellationToken)
    {
        int count = destination.Length;
        int copied = 0;
        while (copied < count)
        {
            ReadResult result = await input.ReadAsync(cancellationToken).ConfigureAwait(false);
            ReadOnlySequence<byte> buffer = result.Buffer;
            if (buffer.IsEmpty && result.IsCompleted)
            {
                input.AdvanceTo(buffer.End);
                throw new InvalidDataException("The connection ended inside a record.");
            }

            int take = (int)Math.Min(buffer.Length, count - copied);
            buffer.Slice(0, take).CopyTo(destination.Span[copied..]);
            copied += take;
            input.AdvanceTo(buffer.GetPosition(take));
        }
    }

    /// <summary>Skips <paramref name="count"/> bytes without keeping them.</summary>
    public async ValueTask SkipAsync(long count, CancellationToken cancellationToken)
    {
        while (count > 0)
        {
            ReadResult result = await input.ReadAsync(cancellationToken).ConfigureAwait(false);
            ReadOnlySequence<byte> buffer = result.Buffer;
            if (buffer.IsEmpty && result.IsCompleted)
            {
                input.AdvanceTo(buffer.End);
                throw new InvalidDataException("The connection ended inside a record.");
            }

            long take = Math.Min(buffer.Length, count);
            count -= take;
            input.AdvanceTo(buffer.GetPosition(take));
        }
    }

    /// <summary>Reads a size-prefixed UTF-8 string of at most <see cref="FramingProtocol.MaxPreambleStringLength"/> bytes.</summary>
    public async ValueTask<string> ReadStringAsync(CancellationToken cancellationToken)
    {
        int size = await ReadSizeAsync(cancellationToken).ConfigureAwait(false);
        if (size > FramingProtocol.MaxPreambleStringLength)
        {
            throw new InvalidDataException($"A preamble string of {size} bytes exceeds {FramingProtocol.MaxPreambleStringLength}.");
        }

        byte[] bytes = new byte[size];
        await ReadExactlyAsync(bytes, cancellationToken).ConfigureAwait(false);
        return Encoding.UTF8.GetString(bytes);
    }
}
