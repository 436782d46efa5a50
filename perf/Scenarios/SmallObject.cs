using System.Runtime.Serialization;

namespace Surrogate.Perf.Scenarios;

/// <summary>The "objects" reference case: an int and a string, as in the 2011 comparison.</summary>
[DataContract(Namespace = "urn:surrogate:perf")]
public sealed class SmallObject
{
    /// <summary>Sequential identifier.</summary>
    [DataMember(Order = 1)]
    public int Id { get; set; }

    /// <summary>A short text value.</summary>
    [DataMember(Order = 2)]
    public string Name { get; set; } = "";
}
