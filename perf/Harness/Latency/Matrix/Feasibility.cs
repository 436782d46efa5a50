namespace Surrogate.Perf.Harness.Latency.Matrix;

/// <summary>
/// Why a cell cannot run (on this server, on this machine), or null when it can. Every such cell is listed in the
/// report with its reason, never dropped.
/// </summary>
public static class Feasibility
{
    public const string StandIn = "soaphost";
    public const string CoreWcf = "corewcf";

    private static readonly BindingKind[] Sessionless = [BindingKind.BasicHttp, BindingKind.WSHttp, BindingKind.BinaryHttp, BindingKind.HttpUds];

    /// <param name="cell">The cell.</param>
    /// <param name="server"><see cref="StandIn"/> or <see cref="CoreWcf"/>.</param>
    /// <param name="remoteMissing">Why the Remote scope cannot be set up here (root, iproute2), or null.</param>
    public static string? Reason(LatencyCell cell, string server, string? remoteMissing)
    {
        if (Generic(cell) is { } generic)
        {
            return generic;
        }

        if (cell.Scope == Scope.Direct)
        {
            return null;
        }

        if (cell.Scope == Scope.Remote && (cell.Binding is BindingKind.NetUds or BindingKind.HttpUds))
        {
            return "a Unix socket is local to one machine: across network namespaces it would bypass the link";
        }

        if (cell.Scope == Scope.Remote && remoteMissing is not null)
        {
            return "Remote: " + remoteMissing;
        }

        if (cell.Instancing == Instancing.PerSession && Sessionless.Contains(cell.Binding))
        {
            return $"{cell.Binding} has no session (no reliable session or security here): PerSession would silently run as PerCall";
        }

        if (cell.Transfer == Transfer.Streamed && cell.Binding is BindingKind.WSHttp or BindingKind.BinaryHttp)
        {
            return $"streamed transfer is offered on NetTcp, NetUds, BasicHttp and HttpUds; {cell.Binding} is buffered here";
        }

        if (cell.Security == Security.Transport && cell.Binding != BindingKind.BasicHttp)
        {
            return "the TLS row is BasicHttp over https (certificate made at run time); other bindings with transport security are not offered";
        }

        return server == StandIn ? OnStandIn(cell) : OnCoreWcf(cell);
    }

    private static string? Generic(LatencyCell cell)
    {
        if (cell.Serializer == SerializerKind.Surrogate && cell.Data != DataKind.DataSet)
        {
            return "[DataSetSurrogate] applies to DataSets only";
        }

        if (cell.Data == DataKind.Stream && cell.Serializer != SerializerKind.DataContract)
        {
            return "a Stream is the message body itself: no serializer applies";
        }

        if (cell.Serializer == SerializerKind.DataContractReferences && cell.Data is DataKind.Bytes or DataKind.Text or DataKind.DataSet)
        {
            return $"{cell.Data} carries no object references to preserve (only the container types are declared IsReference)";
        }

        if (cell.Scope == Scope.Direct && cell.Serializer != SerializerKind.DataContract && cell.Data != DataKind.DataSet)
        {
            return "Direct calls the service object: no serializer runs";
        }

        return null;
    }

    private static string? OnStandIn(LatencyCell cell) => cell switch
    {
        { Binding: BindingKind.NetUds } => "the stand-in host has no net.uds (it offers BasicHttp on a Unix socket: HttpUds)",
        { Instancing: Instancing.PerSession } => "the stand-in host serves Single or PerCall instances only",
        { Serializer: SerializerKind.Xml } => "the stand-in host dispatches data-contract operations only (no [XmlSerializerFormat])",
        { Data: DataKind.Stream } => "the stand-in host takes no Stream parameters",
        { Security: Security.Transport } => "the stand-in host serves no TLS",
        { Transfer: Transfer.Streamed, CallMode: CallMode.OneWay, Binding: BindingKind.NetTcp } =>
            "the stand-in host's streamed net.tcp is request-reply only",
        _ => null,
    };

    private static string? OnCoreWcf(LatencyCell cell) => cell switch
    {
        { Binding: BindingKind.HttpUds } => "CoreWCF's Unix socket binding is net.uds (NetUds); HTTP on a Unix socket is the stand-in host's offer",
        _ => null,
    };
}
