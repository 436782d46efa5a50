namespace Surrogate.Fuzz;

/// <summary>
/// The most a decode may allocate for an input: a fixed floor (an empty DataSet, a table, a culture, expression
/// parsing) plus a fixed multiple of the payload length. Rows are paid for by payload bits (docs/security.md), and
/// each row costs DataSet a DataRow and a record slot per column, so the multiple is large but constant: a decode
/// whose cost grows faster than its input (a quadratic loop, a size hint taken on trust) crosses it.
/// </summary>
public static class AllocationBound
{
    public const long FloorBytes = 4L << 20;

    public const long BytesPerPayloadByte = 2048;

    public static long For(long payloadBytes) => FloorBytes + (BytesPerPayloadByte * payloadBytes);

    public static void Check(long payloadBytes, long allocated, string? refusal)
    {
        if (allocated > For(payloadBytes))
        {
            throw new FuzzFindingException($"{allocated:N0} bytes allocated for a {payloadBytes:N0}-byte payload (bound {For(payloadBytes):N0}); " +
                (refusal is null ? "it loaded" : $"then refused: {refusal}"));
        }
    }
}
