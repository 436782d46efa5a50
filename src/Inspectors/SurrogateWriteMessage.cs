using System.ServiceModel.Channels;
using System.Xml;

namespace Surrogate.ServiceModel;

/// <summary>
/// Says, for the body being written right now, that the peer reads the codec payload. It is an ambient flag set
/// only while <see cref="SurrogateWriteMessage"/> writes its body, so it is visible exactly where the serializer
/// runs, whichever thread or async flow the encoder writes the (lazily written) body on: the message's sync and
/// async write paths both end in the synchronous OnWriteBodyContents, which sets and restores it.
/// </summary>
internal static class SurrogateWriteScope
{
    private static readonly AsyncLocal<bool> Active = new();

    public static bool IsActive => Active.Value;

    public static bool Enter()
    {
        bool previous = Active.Value;
        Active.Value = true;
        return previous;
    }

    public static void Exit(bool previous) => Active.Value = previous;
}

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
