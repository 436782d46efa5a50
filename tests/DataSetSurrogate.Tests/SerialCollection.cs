namespace Surrogate.Tests;

/// <summary>Tests that measure process-wide memory run alone.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SerialCollection
{
    public const string Name = "serial";
}
