namespace Surrogate.ServiceModel;

/// <summary>
/// Says which provider reads the payload elements of the body being read right now, so its limits apply while the
/// content is read (the serializer creates payload objects itself and cannot pass them the provider). Set by
/// the received-message wrapper of each host adapter (<see cref="SurrogateReadMessage"/> here) when the formatter asks for the body reader; the formatter then reads the
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
/// Says, for the body being written right now, that the peer reads the codec payload. It is an ambient flag set
/// only while the outgoing-message wrapper of each host adapter (<see cref="SurrogateWriteMessage"/> here) writes its body, so it is visible exactly where the serializer
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
