using System.Buffers;
using System.IO.Pipelines;

namespace Surrogate.Wire;

/// <summary>
/// The synchronous write side of a pipe for a producer on its own thread: each write is handed on at once and blocks
/// while the pipe is full (back-pressure from the reading side), and fails once the reading side has stopped, so the
/// producer stops too instead of draining its source into nowhere.
/// </summary>
internal sealed class PipeWriterBlockingStream(PipeWriter writer) : Stream
{
    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        writer.Write(buffer);
        var result = writer.FlushAsync().AsTask().GetAwaiter().GetResult();
        if (result.IsCompleted || result.IsCanceled)
        {
            throw new OperationCanceledException("The destination stream stopped reading the payload.");
        }
    }

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
