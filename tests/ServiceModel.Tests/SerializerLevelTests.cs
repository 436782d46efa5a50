using System.Data;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.Text;
using System.Xml;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The provider and payload under the DataContractSerializer alone, on the binary and text XML encodings with
/// default reader quotas: what the transports build on.
/// </summary>
public sealed class SerializerLevelTests
{
    public static TheoryData<bool> Encodings => new() { true, false };

    [Theory]
    [MemberData(nameof(Encodings))]
    public void DataSet_round_trips_as_payload_and_as_plain_xml(bool binary)
    {
        DataSet expected = SampleData.Orders();
        foreach (bool surrogate in new[] { true, false })
        {
            byte[] wire = Write(expected, binary, surrogate, WithProvider());
            Assert.Equal(surrogate, HasMarker(wire));
            var actual = (DataSet)Read<DataSet>(wire, binary, WithProvider())!;
            Assert.Equal(SampleData.Describe(expected), SampleData.Describe(actual));
        }
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void Plain_mode_writes_exactly_what_a_serializer_without_the_provider_writes(bool binary)
    {
        DataSet value = SampleData.Orders();
        byte[] withProvider = Write(value, binary, surrogate: false, WithProvider());
        byte[] without = Write(value, binary, surrogate: false, provider: null);
        Assert.Equal(without, withProvider);
        var readByOldPeer = (DataSet)Read<DataSet>(withProvider, binary, provider: null)!;
        Assert.Equal(SampleData.Describe(value), SampleData.Describe(readByOldPeer));
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void Typed_dataset_comes_out_as_the_declared_type(bool binary)
    {
        var expected = new ShopDataSet();
        expected.Items.Rows.Add("pen", 1.5);
        expected.AcceptChanges();
        expected.Items.Rows.Add("ink", 2.5);
        byte[] wire = Write(expected, binary, surrogate: true, WithProvider());
        var actual = Assert.IsType<ShopDataSet>(Read<ShopDataSet>(wire, binary, WithProvider()));
        Assert.Equal(SampleData.Describe(expected), SampleData.Describe(actual));
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void Tables_inside_data_contracts_lists_and_arrays_use_the_payload(bool binary)
    {
        DataSet source = SampleData.Orders();
        var expected = new Envelope
        {
            Title = "t",
            Table = source.Tables[0].Copy(),
            Tables = [source.Tables[0].Copy(), source.Tables[1].Copy()],
            Sets = [SampleData.Orders(5), SampleData.Orders(3)],
        };
        foreach (bool surrogate in new[] { true, false })
        {
            byte[] wire = Write(expected, binary, surrogate, WithProvider());
            Assert.Equal(surrogate, HasMarker(wire));
            var actual = (Envelope)Read<Envelope>(wire, binary, WithProvider())!;
            Assert.Equal("t", actual.Title);
            Assert.Equal(SampleData.Describe(expected.Table), SampleData.Describe(actual.Table!));
            Assert.Equal(expected.Tables.Select(SampleData.Describe), actual.Tables!.Select(SampleData.Describe));
            Assert.Equal(expected.Sets.Select(SampleData.Describe), actual.Sets!.Select(SampleData.Describe));
            // A peer without the attribute reads what plain mode wrote.
            if (!surrogate)
            {
                var old = (Envelope)Read<Envelope>(wire, binary, provider: null)!;
                Assert.Equal(SampleData.Describe(expected.Table), SampleData.Describe(old.Table!));
            }
        }
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void Payload_larger_than_the_default_max_array_length_reads_under_default_quotas(bool binary)
    {
        DataSet value = Wide(rows: 300, textLength: 100);
        byte[] plain = Write(value, binary, surrogate: false, provider: null);
        byte[] surrogate = Write(value, binary, surrogate: true, WithProvider());
        Assert.True(plain.Length < 65_536, $"plain XML {plain.Length} bytes must fit the default MaxReceivedMessageSize");
        Assert.True(DataSetSerializer.Serialize(value).Length > new XmlDictionaryReaderQuotas().MaxArrayLength);
        var actual = (DataSet)Read<DataSet>(surrogate, binary, WithProvider())!;
        Assert.Equal(SampleData.Describe(value), SampleData.Describe(actual));
    }

    [Fact]
    public void A_refused_payload_is_a_fault_on_the_service_and_a_communication_error_on_the_client()
    {
        byte[] wire = Encoding.UTF8.GetBytes(
            $"<value xmlns=\"urn:test\" xmlns:dss=\"{SurrogatePayload.PayloadNamespace}\" dss:v=\"1\">{Convert.ToBase64String(new byte[] { 1, 2, 3, 4, 5, 6 })}</value>");
        var service = new DataSetSurrogateProvider("Op", SurrogateSide.Service);
        var fault = Assert.Throws<FaultException>(() => Read<DataSet>(wire, binary: false, service));
        Assert.Contains("DataSetSurrogate", fault.Message, StringComparison.Ordinal);
        var client = new DataSetSurrogateProvider("Op", SurrogateSide.Client);
        var error = Assert.Throws<CommunicationException>(() => Read<DataSet>(wire, binary: false, client));
        Assert.IsType<DataSetSurrogateException>(error.InnerException);
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void A_value_the_codec_cannot_write_travels_as_plain_xml_and_is_counted(bool binary)
    {
        // Enum columns need a registration in SurrogateOptions.ExtraColumnTypes; plain DataSet XML carries them.
        var expected = new DataSet("Days");
        DataTable table = expected.Tables.Add("Day");
        table.Columns.Add("Day", typeof(DayOfWeek));
        table.Rows.Add(DayOfWeek.Friday);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(expected));
        using var recorder = new TelemetryRecorder();
        var provider = new DataSetSurrogateProvider("Days", SurrogateSide.Service);

        byte[] wire = Write(expected, binary, surrogate: true, provider);

        Assert.False(HasMarker(wire));
        Assert.Equal(1, recorder.Count(SurrogateTelemetry.FallbacksInstrument, "Days", direction: null, format: null));
        var actual = (DataSet)Read<DataSet>(wire, binary, provider)!;
        Assert.Equal(SampleData.Describe(expected), SampleData.Describe(actual));
    }

    [Fact]
    public void Diagnostic_mode_records_the_plain_xml_size_beside_the_payload_size()
    {
        DataSet value = SampleData.Orders(rows: 200);
        using var recorder = new TelemetryRecorder();
        Write(value, binary: true, surrogate: true, new DataSetSurrogateProvider("Measured", SurrogateSide.Client, measureXmlSize: true));
        Write(value, binary: true, surrogate: true, new DataSetSurrogateProvider("Unmeasured", SurrogateSide.Client));

        double payload = recorder.Sum(SurrogateTelemetry.PayloadSizeInstrument, "Measured", "send", "surrogate");
        double xml = recorder.Sum(SurrogateTelemetry.PayloadSizeInstrument, "Measured", "send", "xml");
        Assert.Equal(DataSetSerializer.Serialize(value).Length, payload);
        Assert.True(xml > payload, $"plain XML {xml} B should be larger than the payload {payload} B");
        Assert.Equal(0, recorder.Count(SurrogateTelemetry.PayloadSizeInstrument, "Unmeasured", "send", "xml"));
    }

    private static DataSet Wide(int rows, int textLength)
    {
        var ds = new DataSet("Wide");
        DataTable table = ds.Tables.Add("T");
        table.Columns.Add("C", typeof(string));
        var random = new Random(3);
        for (int i = 0; i < rows; i++)
        {
            table.Rows.Add(SampleData.Text(random, textLength));
        }

        return ds;
    }

    private static DataSetSurrogateProvider WithProvider() => new("Op", SurrogateSide.Service);

    internal static bool HasMarker(byte[] wire) =>
        wire.AsSpan().IndexOf(Encoding.UTF8.GetBytes(SurrogatePayload.PayloadNamespace)) >= 0;

    private static DataContractSerializer Serializer(Type type, ISerializationSurrogateProvider? provider)
    {
        var serializer = new DataContractSerializer(type, "value", "urn:test");
        if (provider is not null)
        {
            serializer.SetSerializationSurrogateProvider(provider);
        }

        return serializer;
    }

    private static byte[] Write<T>(T value, bool binary, bool surrogate, ISerializationSurrogateProvider? provider)
    {
        using var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = binary
            ? XmlDictionaryWriter.CreateBinaryWriter(stream)
            : XmlDictionaryWriter.CreateTextWriter(stream))
        {
            bool previous = surrogate ? SurrogateWriteScope.Enter() : SurrogateWriteScope.IsActive;
            try
            {
                Serializer(typeof(T), provider).WriteObject(writer, value);
            }
            finally
            {
                SurrogateWriteScope.Exit(previous);
            }
        }

        return stream.ToArray();
    }

    private static object? Read<T>(byte[] wire, bool binary, ISerializationSurrogateProvider? provider)
    {
        var quotas = new XmlDictionaryReaderQuotas();
        using XmlDictionaryReader reader = binary
            ? XmlDictionaryReader.CreateBinaryReader(wire, quotas)
            : XmlDictionaryReader.CreateTextReader(wire, quotas);
        return Serializer(typeof(T), provider).ReadObject(reader);
    }
}
