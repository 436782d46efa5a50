using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.ServiceModel;

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
