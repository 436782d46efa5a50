namespace Surrogate.Compression.Framing;

/// <summary>Content type matching as WCF's encoders do it: the same type, ignoring case, optionally followed by parameters.</summary>
internal static class ContentTypes
{
    public static bool Matches(string contentType, string supported) =>
        contentType.StartsWith(supported, StringComparison.OrdinalIgnoreCase)
        && (contentType.Length == supported.Length || contentType[supported.Length] is ';' or ' ' or '\t');
}

/// <summary>The content type of the compressing encoders: the inner encoder's media type with this suffix.</summary>
internal static class CompressionContentType
{
    /// <summary>
    /// What the compressing encoders append to the inner media type (application/soap+msbinsession1+surrogate-compressed):
    /// a peer without a compressing encoder refuses it at the net.tcp preamble or the HTTP request, and its error names it.
    /// </summary>
    public const string Suffix = "+surrogate-compressed";
}
