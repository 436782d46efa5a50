namespace Surrogate.Perf.Benchmarks.Streaming;

/// <summary>A write-only sink that counts bytes and keeps none (so a streamed payload costs no memory here).</summary>
public sealed class CountingStream : Stream
{
    private long length;

    /// <inheritdoc />
    public override bool CanRead => false;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => true;

    /// <inheritdoc />
    public override long Length => length;

    /// <inheritdoc />
    public override long Position { get => length; set => throw new NotSupportedException(); }

    /// <inheritdoc />
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count) => length += count;

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer) => length += buffer.Length;

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void SetLength(long value) => throw new NotSupportedException();
}
