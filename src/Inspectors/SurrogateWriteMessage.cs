using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.ServiceModel;

/// <summary>
/// Wraps an outgoing message whose receiver announced that it reads the codec payload. Headers, properties and
/// version are the inner message's own; only the body write happens inside <see cref="SurrogateWriteScope"/>.
/// </summary>
internal sealed class SurrogateWriteMessage(Message inner) : Message
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
