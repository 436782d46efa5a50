using ProtoBuf;

namespace Surrogate.Wire;

/// <summary>
/// The scratch buffers behind <see cref="NestedWriters"/>. One set is cached per thread, so buffers keep the size
/// the previous payload grew them to instead of doubling their way up again.
/// </summary>
internal sealed class NestedBuffers : IDisposable
{
    private const int MaxCachedBytes = 16 << 20;

    [ThreadStatic]
    private static NestedBuffers? t_cached;

    private NestedBuffers()
    {
    }

    public PooledBufferWriter Block { get; } = new(4096);

    public PooledBufferWriter Column { get; } = new(4096);

    public PooledBufferWriter Packed { get; } = new(4096);

    public static NestedBuffers Rent()
    {
        var cached = t_cached;
        t_cached = null;
        return cached ?? new NestedBuffers();
    }

    /// <summary>Gives the set back to the thread's cache (or frees it if it grew too large to keep).</summary>
    public void Return()
    {
        if (Block.Capacity + Column.Capacity + Packed.Capacity > MaxCachedBytes || t_cached is not null)
        {
            Dispose();
            return;
        }

        Block.Clear();
        Column.Clear();
        Packed.Clear();
        t_cached = this;
    }

    public void Dispose()
    {
        Block.Dispose();
        Column.Dispose();
        Packed.Dispose();
    }
}

/// <summary>
/// Long-lived protobuf writers for the nested messages of row blocks (RowBlock > ColumnData > packed values). Creating a writer per message costs more than the message for small blocks, so each level keeps one
/// writer for a whole table: a finished message is flushed, taken from its buffer and written to its parent as
/// length-delimited bytes.
/// </summary>
internal ref struct NestedWriters
{
    public ProtoWriter.State Block;
    public ProtoWriter.State Column;
    public ProtoWriter.State Packed;
    private readonly NestedBuffers _buffers;

    public NestedWriters(NestedBuffers buffers)
    {
        _buffers = buffers;
        Block = ProtoWriter.State.Create(buffers.Block, null, null);
        Column = ProtoWriter.State.Create(buffers.Column, null, null);
        Packed = ProtoWriter.State.Create(buffers.Packed, null, null);
    }

    public readonly PooledBufferWriter PackedBuffer => _buffers.Packed;

    public void EmitColumn(int field) => Emit(ref Block, field, ref Column, _buffers.Column);

    public void EmitBlock(ref ProtoWriter.State payload) => Emit(ref payload, PayloadField.Rows, ref Block, _buffers.Block);

    /// <summary>Flushes a child writer and writes what it holds to the parent as one length-delimited field.</summary>
    public static void Emit(ref ProtoWriter.State parent, int field, ref ProtoWriter.State child, PooledBufferWriter childBuffer)
    {
        child.Flush();
        var body = childBuffer.TakeWritten();
        parent.WriteFieldHeader(field, WireType.String);
        parent.WriteBytes(body);
    }

    /// <summary>Closes the writers; after a failure they are abandoned (disposing an unflushed writer throws).</summary>
    public void Dispose(bool failed)
    {
        Finish(ref Packed, failed);
        Finish(ref Column, failed);
        Finish(ref Block, failed);
        _buffers.Block.Clear();
        _buffers.Column.Clear();
        _buffers.Packed.Clear();
    }

    private static void Finish(ref ProtoWriter.State state, bool failed)
    {
        if (failed)
        {
            state.Abandon();
        }
        else
        {
            state.Close();
        }

        state.Dispose();
    }
}
