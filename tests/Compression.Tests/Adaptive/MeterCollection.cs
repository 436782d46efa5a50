namespace Surrogate.Compression.Tests.Adaptive;

/// <summary>
/// The tests that listen to the library's Meter and the one that counts what a decision allocates run one at a time:
/// an enabled listener records each measurement on the thread that made it, so the allocation test failed (80 bytes a
/// message) whenever a listening test ran beside it.
/// </summary>
[CollectionDefinition(Name)]
public sealed class MeterCollection
{
    public const string Name = "The compression Meter";
}
