using System.Globalization;

namespace Surrogate.Perf.Harness.Latency.Matrix;

/// <summary>Where the service runs relative to the client.</summary>
public enum Scope
{
    /// <summary>The service object called as a plain method in the client process: the floor.</summary>
    Direct,

    /// <summary>Host and client in one process, over loopback.</summary>
    InProcess,

    /// <summary>Server and client in separate processes on one machine, pinned to separate cores.</summary>
    SameMachine,

    /// <summary>The server in its own network namespace behind a veth pair (tbf at the configured rate).</summary>
    Remote,
}

/// <summary>The binding between client and service.</summary>
public enum BindingKind
{
    NetTcp,

    /// <summary>CoreWCF's UnixDomainSocketBinding with the System.ServiceModel.UnixDomainSocket client.</summary>
    NetUds,
    BasicHttp,
    WSHttp,

    /// <summary>Binary message encoding over HTTP (a CustomBinding).</summary>
    BinaryHttp,

    /// <summary>BasicHttp text SOAP carried over a Unix domain socket (the stand-in host's Unix socket offer).</summary>
    HttpUds,
}

/// <summary>Transport security: none, or TLS with a certificate the harness makes at run time.</summary>
public enum Security
{
    None,
    Transport,
}

/// <summary>The service's InstanceContextMode.</summary>
public enum Instancing
{
#pragma warning disable CA1720 // WCF's own name for the mode
    Single,
#pragma warning restore CA1720
    PerSession,
    PerCall,
}

public enum CallMode
{
    TwoWay,

    /// <summary>Timed to the service's receipt, signalled back over a side channel.</summary>
    OneWay,
}

/// <summary>How the payload is written; <see cref="Surrogate"/> is [DataSetSurrogate] for the DataSet type.</summary>
public enum SerializerKind
{
    DataContract,

    /// <summary>DataContractSerializer preserving object references (the payload types declared IsReference).</summary>
    DataContractReferences,
    Xml,
    Surrogate,
}

/// <summary>The payload's type; <see cref="NestedText"/> and <see cref="NestedBinary"/> are 1×3×3 hierarchies.</summary>
public enum DataKind
{
    Bytes,
    Text,
    Stream,
    Container,
    NestedText,
    NestedBinary,
    DataSet,
}

public enum Transfer
{
    Buffered,
    Streamed,
}

/// <summary>How calls are offered.</summary>
public enum LoadModel
{
    /// <summary>One call in flight, the next sent when the reply is in.</summary>
    Closed,

    /// <summary>Calls scheduled at a fixed rate; latency measured from the scheduled send time.</summary>
    Open,

    /// <summary>N clients, each closed loop, at once.</summary>
    Throughput,
}

/// <summary>One point of the matrix: every dimension's value and the payload size in bytes.</summary>
public sealed record LatencyCell(
    Scope Scope,
    BindingKind Binding,
    Security Security,
    Instancing Instancing,
    CallMode CallMode,
    SerializerKind Serializer,
    DataKind Data,
    Transfer Transfer,
    LoadModel Load,
    int Size)
{
    /// <summary>A file-name-safe key, unique per cell, e.g. <c>samemachine.nettcp.none.percall.twoway.datacontract.bytes.buffered.closed.1000</c>.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string Key => string.Join('.', new object[] { Scope, Binding, Security, Instancing, CallMode, Serializer, Data, Transfer, Load }
        .Select(v => v.ToString()!.ToLowerInvariant())) + "." + Size.ToString(CultureInfo.InvariantCulture);
}
