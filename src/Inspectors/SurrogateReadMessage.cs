using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.ServiceModel;

/// <summary>
/// Says which provider reads the payload elements of the body being read right now, so its limits apply while the
/// content is read (the serializer creates payload objects itself and cannot pass them the provider). Set by
/// <see cref="SurrogateReadMessage"/> when the formatter asks for the body reader; the formatter then reads the
/// body synchronously, so the value is visible exactly where <see cref="SurrogatePayload"/> reads. Each received
/// message of an operation with the attribute sets it afresh.
/// </summary>
internal static class SurrogateReadScope
{
    private static readonly AsyncLocal<DataSetSurrogateProvider?> Reader = new();

    /// <summary>The provider of the operation whose body is being read, or null outside such a read.</summary>
    public static DataSetSurrogateProvider? Current => Reader.Value;

    public static void Enter(DataSetSurrogateProvider? reader) => Reader.Value = reader;
}

/// <summary>
/// Wraps a received message of an operation with the attribute on this end. Headers, properties and version are the
/// inner message's own; only handing out the body reader also enters <see cref="SurrogateReadScope"/>.
/// </summary>
internal sealed class SurrogateReadMessage(Message inner, DataSetSurrogateProvider reader) : Message
{
    public override MessageHeaders Headers => inner.Headers;

    public override MessageProperties Properties => inner.Properties;

    public override MessageVersion Version => inner.Version;

    public override bool IsEmpty => inner.IsEmpty;

    public override bool IsFault => inner.IsFault;

    protected override XmlDictionaryReader OnGetReaderAtBodyContents()
    {
        SurrogateReadScope.Enter(reader);
        return inner.GetReaderAtBodyContents();
    }

    protected override void OnWriteBodyContents(XmlDictionaryWriter writer) => inner.WriteBodyContents(writer);

    protected override MessageBuffer OnCreateBufferedCopy(int maxBufferSize) => inner.CreateBufferedCopy(maxBufferSize);

    protected override string OnGetBodyAttribute(string localName, string ns) => inner.GetBodyAttribute(localName, ns);

    protected override void OnClose() => inner.Close();
}
