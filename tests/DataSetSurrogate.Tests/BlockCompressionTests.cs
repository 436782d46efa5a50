using System.Buffers;
using System.Data;
using Surrogate.Blocks;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// Compressed row blocks (SurrogateOptions.BlockCodec): every fidelity fixture round-trips field by field with each
/// codec on every read path, each codec's bytes are pinned by a golden file, the writer keeps blocks raw where
/// compression does not save, and damaged, lying or hostile compressed blocks are refused with the library's exception
/// before anything is decompressed where the header already tells.
/// </summary>
public sealed class BlockCompressionTests
{
    public static readonly RowBlockCodec[] Codecs = [RowBlockCodec.Lz4, RowBlockCodec.Zstd, RowBlockCodec.Brotli, RowBlockCodec.Deflate];

    public static TheoryData<string, RowBlockCodec> FixturesByCodec()
    {
        var data = new TheoryData<string, RowBlockCodec>();
        foreach (var fixture in FidelityFixtures.All.Select(f => (string)f[0]))
        {
            foreach (var codec in Codecs)
            {
                data.Add(fixture, codec);
            }
        }

        return data;
    }

    public static TheoryData<RowBlockCodec> EachCodec() => [.. Codecs];

    [Theory]
    [MemberData(nameof(FixturesByCodec))]
    public void Every_fixture_round_trips_with_compressed_blocks(string fixture, RowBlockCodec codec)
    {
        var ds = Cultures.Under("en-US", () => FidelityFixtures.Create(fixture));
        var options = new SurrogateOptions { BlockCodec = codec };
        var payload = DataSetSerializer.Serialize(ds, options);
        DataSetAssert.Equivalent(ds, DataSetSerializer.Deserialize(payload));
        DataSetAssert.Equivalent(ds, DataSetSerializer.Deserialize(new MemoryStream(payload)));
        DataSetAssert.Equivalent(ds, DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload)));

        // The forward-only reader yields the same values as over the raw payload.
        Assert.Equal(ReaderValues(DataSetSerializer.Serialize(ds)), ReaderValues(payload));
    }

    /// <summary>Blocks that compress are compressed, and the payload shrinks; every block names its codec first.</summary>
    [Theory]
    [MemberData(nameof(EachCodec))]
    public void Compressible_blocks_are_compressed_and_the_payload_shrinks(RowBlockCodec codec)
    {
        var ds = FidelityFixtures.Orders(2000);
        var raw = DataSetSerializer.Serialize(ds);
        var compressed = DataSetSerializer.Serialize(ds, new SurrogateOptions { BlockCodec = codec });
        var blocks = RowBlocks(compressed);
        Assert.NotEmpty(blocks);
        Assert.All(blocks, b => Assert.Equal([(7, (ulong)codec)], FirstField(b)));
        Assert.True(compressed.Length < raw.Length * 0.7, $"{codec}: {compressed.Length} bytes compressed, {raw.Length} raw");
        DataSetAssert.Equivalent(ds, DataSetSerializer.Deserialize(compressed));
    }

    /// <summary>A block compression does not shrink (tiny, or random bytes) is written raw, as with no codec.</summary>
    [Theory]
    [MemberData(nameof(EachCodec))]
    public void Blocks_compression_does_not_shrink_are_written_raw(RowBlockCodec codec)
    {
        var tiny = GoldenWireTests.Tiny();
        Assert.Equal(DataSetSerializer.Serialize(tiny), DataSetSerializer.Serialize(tiny, new SurrogateOptions { BlockCodec = codec }));

        var random = new DataTable("R");
        random.Columns.Add("B", typeof(byte[]));
        var rng = new Random(7);
        for (var i = 0; i < 50; i++)
        {
            var bytes = new byte[512];
            rng.NextBytes(bytes);
            random.Rows.Add(bytes);
        }

        var options = new SurrogateOptions { BlockCodec = codec, RowsPerBlock = 10 };
        var payload = DataSetSerializer.Serialize(random, options);
        Assert.Equal(DataSetSerializer.Serialize(random, options with { BlockCodec = RowBlockCodec.None }), payload);
        DataSetAssert.Equivalent(random, DataSetSerializer.DeserializeTable(payload));
    }

    /// <summary>
    /// One small fixture per codec, pinned: the bytes written must equal the committed file, which must read back.
    /// Regenerate with UPDATE_GOLDEN=1. (Brotli and DEFLATE come from the runtime's native libraries: a runtime that
    /// changes their output changes these files, and the test says so.)
    /// </summary>
    [Theory]
    [MemberData(nameof(EachCodec))]
    public void Each_codec_matches_its_golden_file(RowBlockCodec codec)
    {
        var ds = Cultures.Under("en-US", () => FidelityFixtures.Create("orders"));
        var bytes = DataSetSerializer.Serialize(ds, new SurrogateOptions { BlockCodec = codec });
        var path = Path.Combine(RepositoryPaths.TestSource, "Golden", "blocks", $"orders.{codec.ToString().ToLowerInvariant()}.bin");
        if (Environment.GetEnvironmentVariable("UPDATE_GOLDEN") == "1")
        {
            File.WriteAllBytes(path, bytes);
        }

        var golden = File.ReadAllBytes(path);
        Assert.Contains(RowBlocks(golden), b => FirstField(b)[0] == (7, (ulong)codec));
        DataSetAssert.Equivalent(ds, DataSetSerializer.Deserialize(golden));
        Assert.True(golden.AsSpan().SequenceEqual(bytes), $"{codec}: the payload changed: {bytes.Length} bytes now, {golden.Length} in the golden file");
    }

    [Fact]
    public void Options_check_the_codec_and_its_level_whichever_is_set_last()
    {
        Assert.Equal(RowBlockCodec.None, SurrogateOptions.Default.BlockCodec);
        Assert.Throws<ArgumentOutOfRangeException>(() => new SurrogateOptions { BlockCodec = (RowBlockCodec)2 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new SurrogateOptions { BlockCodec = RowBlockCodec.Deflate, BlockCompressionLevel = 1 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new SurrogateOptions { BlockCompressionLevel = 12, BlockCodec = RowBlockCodec.Brotli });
        Assert.Throws<ArgumentOutOfRangeException>(() => new SurrogateOptions { BlockCodec = RowBlockCodec.Lz4, BlockCompressionLevel = 2 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new SurrogateOptions { BlockCompressionLevel = -1 });
        var zstd = new SurrogateOptions { BlockCompressionLevel = 19, BlockCodec = RowBlockCodec.Zstd };
        Assert.Equal(19, zstd.EffectiveBlockLevel);
        Assert.Throws<ArgumentOutOfRangeException>(() => zstd with { BlockCodec = RowBlockCodec.Deflate });
        Assert.Equal(0, new SurrogateOptions { BlockCodec = RowBlockCodec.Lz4 }.EffectiveBlockLevel);
        var ds = FidelityFixtures.Orders(200);
        DataSetAssert.Equivalent(ds, DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds, zstd)));
    }

    /// <summary>A reader meets a codec it does not know: refused, naming it, never read as something else.</summary>
    [Theory]
    [InlineData(2UL)]
    [InlineData(5UL)]
    [InlineData(99UL)]
    public void An_unknown_codec_is_refused_by_name(ulong codec)
    {
        var payload = WithFirstBlock(Compressed(RowBlockCodec.Zstd), body => Patch(body, 0, ProtoWire.Varint(codec)));
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload));
        Assert.Contains($"codec {codec}", error.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// A compressed block starts with its codec, not its row count: a reader that predates compressed blocks stops at
    /// "does not start with its row count" instead of reading the block's rows as missing. This reader refuses the
    /// same block when the codec field is taken away.
    /// </summary>
    [Fact]
    public void Without_its_codec_a_compressed_block_is_refused_not_misread()
    {
        var payload = WithFirstBlock(Compressed(RowBlockCodec.Lz4), body => body[ProtoWire.Fields(body)[1].Start..]);
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload));
        Assert.Contains("does not start with its row count", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(EachCodec))]
    public void Truncated_or_corrupt_compressed_data_is_refused(RowBlockCodec codec)
    {
        var payload = Compressed(codec);
        var cut = WithFirstBlock(payload, body =>
        {
            var data = ProtoWire.Fields(body)[2];
            var half = body.AsSpan(data.ValueStart, (data.End - data.ValueStart) / 2);
            return [.. body[..data.Start], .. ProtoWire.LengthDelimited(9, half)];
        });
        AssertRefused(cut, "corrupt or truncated");

        var flipped = WithFirstBlock(payload, body =>
        {
            var data = ProtoWire.Fields(body)[2];
            var copy = body.ToArray();
            for (var i = data.ValueStart + 2; i < data.End; i += 7)
            {
                copy[i] ^= 0x5A;
            }

            return copy;
        });
        AssertRefused(flipped, null);

        // A raw length that is not the data's: one byte short and one byte over.
        foreach (var delta in new[] { -1, 1 })
        {
            var lying = WithFirstBlock(payload, body => Patch(body, 1, ProtoWire.Varint(ProtoWire.Fields(body)[1].Varint + (ulong)(long)delta)));
            AssertRefused(lying, "corrupt or truncated");
        }
    }

    /// <summary>Bombs are refused by the declared raw length, before anything is allocated for it or decompressed.</summary>
    [Fact]
    public void A_bomb_is_refused_by_its_declared_length()
    {
        var ratio = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(CraftedPayloads.Create("compressed-bomb-over-the-expansion-rule")));
        Assert.Contains("more than 1024 times its size", ratio.Message, StringComparison.Ordinal);

        var total = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(CraftedPayloads.Create("compressed-block-over-max-total-bytes")));
        Assert.Contains(nameof(SurrogateOptions.MaxTotalBytes), total.Message, StringComparison.Ordinal);

        // The payload's own bytes count too: a block that fits alone is refused when the limit is the payload's size.
        var payload = Compressed(RowBlockCodec.Zstd);
        var small = new SurrogateOptions { MaxTotalBytes = payload.Length + 10 };
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, small));
        Assert.Contains("compressed row blocks at their raw length", error.Message, StringComparison.Ordinal);
        using var reader = DataSetSerializer.CreateReader(new MemoryStream(payload), small);
        Assert.Throws<DataSetSurrogateException>(() => { while (reader.Read()) { } });
    }

    [Fact]
    public void Compression_fields_anywhere_but_first_are_refused()
    {
        var raw = DataSetSerializer.Serialize(FidelityFixtures.Orders(50));
        var payload = WithFirstBlock(raw, body => [.. body, .. ProtoWire.Tag(7, 0), 4]);
        AssertRefused(payload, "compression fields");

        // A compressed block whose data is itself a compressed block.
        var nested = WithFirstBlock(Compressed(RowBlockCodec.Lz4), body => Inner(RowBlockCodec.Lz4, [.. body, .. new byte[64]]));
        AssertRefused(nested, null);
    }

    private static List<string> ReaderValues(byte[] payload)
    {
        var values = new List<string>();
        using var reader = DataSetSerializer.CreateReader(new MemoryStream(payload));
        do
        {
            while (reader.Read())
            {
                for (var i = 0; i < reader.FieldCount; i++)
                {
                    values.Add(DataSetAssert.Describe(reader.GetValue(i)));
                }
            }

            values.Add("--");
        }
        while (reader.NextResult());
        return values;
    }

    internal static byte[] Compressed(RowBlockCodec codec) =>
        DataSetSerializer.Serialize(FidelityFixtures.Orders(300), new SurrogateOptions { BlockCodec = codec });

    /// <summary>A compressed block body holding <paramref name="raw"/> compressed with <paramref name="codec"/>.</summary>
    internal static byte[] Inner(RowBlockCodec codec, byte[] raw)
    {
        var scratch = new byte[raw.Length + 1024];
        Assert.True(BlockCodecs.TryCompress((BlockCodec)codec, codec == RowBlockCodec.Zstd ? 3 : codec == RowBlockCodec.Deflate ? 6 : codec == RowBlockCodec.Brotli ? 4 : 0, raw, new ArraySegment<byte>(scratch), out var written));
        return [.. ProtoWire.Tag(7, 0), .. ProtoWire.Varint((ulong)codec), .. ProtoWire.Tag(8, 0), .. ProtoWire.Varint((ulong)raw.Length), .. ProtoWire.LengthDelimited(9, scratch.AsSpan(0, written))];
    }

    /// <summary>The bodies of a payload's row blocks.</summary>
    internal static List<byte[]> RowBlocks(byte[] payload) =>
        [.. ProtoWire.Fields(payload).Where(f => f.Number == 7).Select(f => payload[f.ValueStart..f.End])];

    private static (int Number, ulong Varint)[] FirstField(byte[] block) => [.. ProtoWire.Fields(block).Take(1).Select(f => (f.Number, f.Varint))];

    private static byte[] WithFirstBlock(byte[] payload, Func<byte[], byte[]> change)
    {
        var block = ProtoWire.Fields(payload).First(f => f.Number == 7);
        return ProtoWire.Replace(payload, block, ProtoWire.LengthDelimited(7, change(payload[block.ValueStart..block.End])));
    }

    // Replaces the value of the block's field at index `field` (a varint) with `value`.
    private static byte[] Patch(byte[] body, int field, byte[] value)
    {
        var f = ProtoWire.Fields(body)[field];
        return [.. body[..f.ValueStart], .. value, .. body[f.End..]];
    }

    private static void AssertRefused(byte[] payload, string? says)
    {
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload));
        if (says is not null)
        {
            Assert.Contains(says, error.Message, StringComparison.Ordinal);
        }

        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(new MemoryStream(payload)));
        Assert.Throws<DataSetSurrogateException>(() =>
        {
            using var reader = DataSetSerializer.CreateReader(new MemoryStream(payload));
            while (reader.Read())
            {
            }
        });
    }
}
