using System.Xml;
using CoreWCF.Channels;
using Surrogate.ServiceModel;

namespace Surrogate.CoreWCF;

/// <summary>
/// Wraps a received CoreWCF message of an operation with the attribute. Headers, properties and version are the inner
/// message's own; handing out the body reader also enters <see cref="SurrogateReadScope"/> with the operation's
/// provider, whose limits then apply while the formatter reads the body (synchronously, right after).
/// </summary>
internal sealed class CoreWcfReadMessage(Message inner, DataSetSurrogateProvider reader) : Message
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

/// <summary>
/// Wraps an outgoing CoreWCF reply whose caller announced that it reads the codec payload. Its body is written inside
/// <see cref="SurrogateWriteScope"/>; every write path of a CoreWCF message ends in the synchronous
/// OnWriteBodyContents (the asynchronous one is internal to CoreWCF and calls it).
/// </summary>
internal sealed class CoreWcfWriteMessage(Message inner) : Message
{
    public override MessageHeaders Headers => inner.Headers;

    public override MessageProperties Properties => inner.Properties;

    public override MessageVersion Version => inner.Version;

    public override bool IsEmpty => inner.IsEmpty;

    public override bool IsFault => inner.IsFault;

    protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
    {
        bool previous = SurrogateWriteScope.Enter();
        try
        {
            inner.WriteBodyContents(writer);
        }
        finally
        {
            SurrogateWriteScope.Exit(previous);
        }
    }

    protected override string OnGetBodyAttribute(string localName, string ns) => inner.GetBodyAttribute(localName, ns);

    protected override void OnClose() => inner.Close();
}
