using System.Xml;

namespace Surrogate.Perf.Benchmarks.ReaderTypes;

/// <summary>
/// An XmlReader that forwards every call to an inner reader and adds nothing: it prices one layer of wrapping,
/// like WCF's XmlSerializableReader around the message reader. Non-abstract members DataSet's loader uses are
/// forwarded too, so the wrapper does not fall back to slower base implementations.
/// </summary>
public sealed class DelegatingXmlReader(XmlReader inner) : XmlReader
{
    /// <inheritdoc />
    public override int AttributeCount => inner.AttributeCount;

    /// <inheritdoc />
    public override string BaseURI => inner.BaseURI;

    /// <inheritdoc />
    public override int Depth => inner.Depth;

    /// <inheritdoc />
    public override bool EOF => inner.EOF;

    /// <inheritdoc />
    public override bool HasValue => inner.HasValue;

    /// <inheritdoc />
    public override bool IsDefault => inner.IsDefault;

    /// <inheritdoc />
    public override bool IsEmptyElement => inner.IsEmptyElement;

    /// <inheritdoc />
    public override string LocalName => inner.LocalName;

    /// <inheritdoc />
    public override string Name => inner.Name;

    /// <inheritdoc />
    public override string NamespaceURI => inner.NamespaceURI;

    /// <inheritdoc />
    public override XmlNameTable NameTable => inner.NameTable;

    /// <inheritdoc />
    public override XmlNodeType NodeType => inner.NodeType;

    /// <inheritdoc />
    public override string Prefix => inner.Prefix;

    /// <inheritdoc />
    public override ReadState ReadState => inner.ReadState;

    /// <inheritdoc />
    public override string Value => inner.Value;

    /// <inheritdoc />
    public override XmlSpace XmlSpace => inner.XmlSpace;

    /// <inheritdoc />
    public override string XmlLang => inner.XmlLang;

    /// <inheritdoc />
    public override string GetAttribute(int i) => inner.GetAttribute(i);

    /// <inheritdoc />
    public override string? GetAttribute(string name) => inner.GetAttribute(name);

    /// <inheritdoc />
    public override string? GetAttribute(string name, string? namespaceURI) => inner.GetAttribute(name, namespaceURI);

    /// <inheritdoc />
    public override string? LookupNamespace(string prefix) => inner.LookupNamespace(prefix);

    /// <inheritdoc />
    public override void MoveToAttribute(int i) => inner.MoveToAttribute(i);

    /// <inheritdoc />
    public override bool MoveToAttribute(string name) => inner.MoveToAttribute(name);

    /// <inheritdoc />
    public override bool MoveToAttribute(string name, string? ns) => inner.MoveToAttribute(name, ns);

    /// <inheritdoc />
    public override bool MoveToElement() => inner.MoveToElement();

    /// <inheritdoc />
    public override bool MoveToFirstAttribute() => inner.MoveToFirstAttribute();

    /// <inheritdoc />
    public override bool MoveToNextAttribute() => inner.MoveToNextAttribute();

    /// <inheritdoc />
    public override bool Read() => inner.Read();

    /// <inheritdoc />
    public override bool ReadAttributeValue() => inner.ReadAttributeValue();

    /// <inheritdoc />
    public override string ReadString() => inner.ReadString();

    /// <inheritdoc />
    public override XmlNodeType MoveToContent() => inner.MoveToContent();

    /// <inheritdoc />
    public override void Skip() => inner.Skip();

    /// <inheritdoc />
    public override void ResolveEntity() => inner.ResolveEntity();

    /// <inheritdoc />
    public override void Close() => inner.Close();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }
}
