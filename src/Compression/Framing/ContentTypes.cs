namespace Surrogate.Compression.Framing;

/// <summary>Content type matching as WCF's encoders do it: the same type, ignoring case, optionally followed by parameters.</summary>
internal static class ContentTypes
{
    public static bool Matches(string contentType, string supported) =>
        contentType.StartsWith(supported, StringComparison.OrdinalIgnoreCase)
        && (contentType.Length == supported.Length || contentType[supported.Length] is ';' or ' ' or '\t');
}
