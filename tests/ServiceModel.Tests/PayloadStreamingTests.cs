using System.Data;
using System.Diagnostics;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.Xml;
using Surrogate.Tests.Fixtures;
using Xunit;
using Xunit.Abstractions;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// What the payload holds while it is read and written, under the DataContractSerializer alone on the binary and
/// text XML encodings: a read stops at MaxTotalBytes without taking in the rest, and a value larger than the staging
/// limit reaches the writer while the codec is still encoding it.
/// </summary>
public sealed class PayloadStreamingTests(ITestOutputHelper output)
{
    private const int Limit = 1024;
    private const int HostileBytes = 4 << 20;

    public static TheoryData<bool> Encodings => new() { true, false };

    [Theory]
    [MemberData(nameof(Encodings))]
    public void A_value_over_max_total_bytes_is_refused_after_reading_about_the_limit(bool binary)
    {
        byte[] wire = PayloadElement(new byte[HostileBytes], binary);
        var service = new DataSetSurrogateProvider("Op", SurrogateSide.Service, new SurrogateOptions { MaxTotalBytes = Limit });
        Read(binary, service, new MemoryStream(PayloadElement(DataSetSerializer.Serialize(new DataSet("Warm")), binary))); // JIT and pools warmed

        var source = new CountingReadStream(new MemoryStream(wire));
        long before = GC.GetAllocatedBytesForCurrentThread();
        var fault = Assert.Throws<FaultException>(() => Read(binary, service, source));
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        output.WriteLine($"{(binary ? "binary" : "text")}: refused a {HostileBytes:N0}-byte value after reading {source.BytesRead:N0} of {wire.Length:N0} bytes, {allocated:N0} bytes allocated");
        Assert.Contains($"payload bytes is more than {Limit}", fault.Message, StringComparison.Ordinal);
        Assert.Contains(nameof(SurrogateOptions.MaxTotalBytes), fault.Message, StringComparison.Ordinal);
        // The XML reader reads ahead in buffers of its own; what matters is that the 4 MB value is not taken in.
        Assert.True(source.BytesRead < 256 * 1024, $"read {source.BytesRead:N0} of {wire.Length:N0} bytes before refusing");
        Assert.True(allocated < 512 * 1024, $"allocated {allocated:N0} bytes to refuse a {HostileBytes:N0}-byte value");
    }

    [Fact]
    public void The_client_refuses_an_oversized_reply_value_with_a_communication_exception()
    {
        byte[] wire = PayloadElement(new byte[64 * 1024], binary: true);
        var client = new DataSetSurrogateProvider("Op", SurrogateSide.Client, new SurrogateOptions { MaxTotalBytes = Limit });
        var error = Assert.Throws<CommunicationException>(() => Read(binary: true, client, new MemoryStream(wire)));
        Assert.IsType<DataSetSurrogateException>(error.InnerException);
        Assert.Contains(nameof(SurrogateOptions.MaxTotalBytes), error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void A_value_larger_than_the_staging_limit_reaches_the_writer_while_the_codec_encodes_it(bool binary)
    {
        DataSet value = Strings(rows: 60_000);
        var destination = new StackRecordingStream(recordAfter: 64 * 1024);
        byte[] wire = Write(value, binary, destination);

        Assert.True(SerializerLevelTests.HasMarker(wire));
        Assert.True(destination.FirstLateWrite is not null, "the payload should reach the stream");
        Assert.True(CodecOnStack(destination.FirstLateWrite),
            "the payload's first bytes should reach the stream while the codec is still encoding (written through, not held whole)");
        var back = (DataSet)Read(binary, new DataSetSurrogateProvider("Op", SurrogateSide.Service), new MemoryStream(wire))!;
        DataSetAssert.Equivalent(value, back);
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void A_value_within_the_staging_limit_is_written_once_the_codec_has_finished(bool binary)
    {
        var destination = new StackRecordingStream(recordAfter: 0);
        Write(Strings(rows: 2_000), binary, destination);
        Assert.False(CodecOnStack(destination.FirstLateWrite!), "a small value is staged, so a refusal can still fall back to plain XML");
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void A_column_type_refused_in_a_later_table_of_a_large_value_still_falls_back_to_plain_xml(bool binary)
    {
        DataSet value = Strings(rows: 60_000);
        DataTable days = value.Tables.Add("Days");
        days.Columns.Add("Day", typeof(DayOfWeek));
        days.Rows.Add(DayOfWeek.Monday);
        using var recorder = new TelemetryRecorder();

        byte[] wire = Write(value, binary, new MemoryStream());

        Assert.False(SerializerLevelTests.HasMarker(wire));
        Assert.Equal(1, recorder.Count(SurrogateTelemetry.FallbacksInstrument, "Op", direction: null, format: null));
        var back = (DataSet)Read(binary, new DataSetSurrogateProvider("Op", SurrogateSide.Service), new MemoryStream(wire))!;
        DataSetAssert.Equivalent(value, back);
    }

    [Fact]
    public void A_value_refused_after_it_started_going_out_fails_the_write_with_the_codec_error()
    {
        // An object-column value outside the closed set, in the last row: found only after the first MiB went out.
        DataSet value = Strings(rows: 60_000);
        DataTable objects = value.Tables.Add("Objects");
        objects.Columns.Add("Value", typeof(object));
        objects.Rows.Add(new NotInTheClosedSet());

        var error = Assert.Throws<DataSetSurrogateException>(() => Write(value, binary: true, new MemoryStream()));
        Assert.Contains("closed set", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_transport_failure_while_writing_through_surfaces_as_itself()
    {
        var broken = new StackRecordingStream(recordAfter: 0) { FailAfter = 256 * 1024 };
        var error = Assert.Throws<IOException>(() => Write(Strings(rows: 60_000), binary: true, broken));
        Assert.Equal(StackRecordingStream.FailureMessage, error.Message);
    }

    private sealed class NotInTheClosedSet;

    private static bool CodecOnStack(StackTrace stack) =>
        stack.GetFrames().Any(f => f.GetMethod()?.DeclaringType?.FullName?.StartsWith("Surrogate.DataSetSerializer", StringComparison.Ordinal) == true);

    private static DataSet Strings(int rows)
    {
        var ds = new DataSet("Strings");
        DataTable table = ds.Tables.Add("T");
        table.Columns.Add("Id", typeof(int));
        table.Columns.Add("Text", typeof(string));
        var random = new Random(11);
        for (int i = 0; i < rows; i++)
        {
            table.Rows.Add(i, SampleData.Text(random, 16));
        }

        ds.AcceptChanges();
        return ds;
    }

    /// <summary>A value element whose content is <paramref name="payload"/> marked as the codec payload.</summary>
    private static byte[] PayloadElement(byte[] payload, bool binary)
    {
        using var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = binary ? XmlDictionaryWriter.CreateBinaryWriter(stream) : XmlDictionaryWriter.CreateTextWriter(stream))
        {
            writer.WriteStartElement("value", "urn:test");
            writer.WriteAttributeString("dss", SurrogatePayload.PayloadAttribute, SurrogatePayload.PayloadNamespace, "1");
            writer.WriteBase64(payload, 0, payload.Length);
            writer.WriteEndElement();
        }

        return stream.ToArray();
    }

    private static byte[] Write(DataSet value, bool binary, Stream destination)
    {
        var serializer = new DataContractSerializer(typeof(DataSet), "value", "urn:test");
        serializer.SetSerializationSurrogateProvider(new DataSetSurrogateProvider("Op", SurrogateSide.Client));
        var copy = new MemoryStream();
        using (var tee = new TeeStream(destination, copy))
        using (XmlDictionaryWriter writer = binary ? XmlDictionaryWriter.CreateBinaryWriter(tee) : XmlDictionaryWriter.CreateTextWriter(tee))
        {
            bool previous = SurrogateWriteScope.Enter();
            try
            {
                serializer.WriteObject(writer, value);
            }
            finally
            {
                SurrogateWriteScope.Exit(previous);
            }
        }

        return copy.ToArray();
    }

    /// <summary>Reads a value element from <paramref name="source"/> as a message body is read: with the provider's read scope.</summary>
    private static object? Read(bool binary, DataSetSurrogateProvider provider, Stream source)
    {
        var quotas = new XmlDictionaryReaderQuotas();
        using XmlDictionaryReader reader = binary
            ? XmlDictionaryReader.CreateBinaryReader(source, quotas)
            : XmlDictionaryReader.CreateTextReader(source, quotas);
        var serializer = new DataContractSerializer(typeof(DataSet), "value", "urn:test");
        serializer.SetSerializationSurrogateProvider(provider);
        SurrogateReadScope.Enter(provider);
        try
        {
            return serializer.ReadObject(reader);
        }
        finally
        {
            SurrogateReadScope.Enter(null);
        }
    }

    /// <summary>Counts the bytes the XML reader took from the source.</summary>
    private sealed class CountingReadStream(Stream inner) : Stream
    {
        public long BytesRead { get; private set; }

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => BytesRead; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            int read = inner.Read(buffer, offset, count);
            BytesRead += read;
            return read;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }

    /// <summary>Records the call stack of the first write that takes the stream past <c>recordAfter</c> bytes; can fail on purpose.</summary>
    private sealed class StackRecordingStream(long recordAfter) : Stream
    {
        public const string FailureMessage = "the connection was reset";

        private long _written;

        public StackTrace? FirstLateWrite { get; private set; }

        public long FailAfter { get; init; } = long.MaxValue;

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => _written;

        public override long Position { get => _written; set => throw new NotSupportedException(); }

        public override void Write(byte[] buffer, int offset, int count)
        {
            _written += count;
            if (_written > FailAfter)
            {
                throw new IOException(FailureMessage);
            }

            if (_written > recordAfter && FirstLateWrite is null)
            {
                FirstLateWrite = new StackTrace();
            }
        }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }

    /// <summary>Writes to both streams.</summary>
    private sealed class TeeStream(Stream first, Stream second) : Stream
    {
        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => second.Length;

        public override long Position { get => second.Position; set => throw new NotSupportedException(); }

        public override void Write(byte[] buffer, int offset, int count)
        {
            first.Write(buffer, offset, count);
            second.Write(buffer, offset, count);
        }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
