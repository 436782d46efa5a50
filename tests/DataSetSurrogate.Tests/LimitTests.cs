using System.Buffers;
using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// Every read-side limit refuses with the library's exception, and the message names the option to change. Row blocks
/// cut or corrupted part-way say where: table, column and row block.
/// </summary>
public sealed class LimitTests
{
    public static TheoryData<string, string> Limits => new()
    {
        { nameof(SurrogateOptions.MaxColumnsPerTable), "strings" },
        { nameof(SurrogateOptions.MaxBinaryLength), "binary" },
        { nameof(SurrogateOptions.MaxRelations), "constraints-and-relations" },
        { nameof(SurrogateOptions.MaxConstraints), "constraints-and-relations" },
        { nameof(SurrogateOptions.MaxNameLength), "long-name" },
        { nameof(SurrogateOptions.MaxExpressionLength), "expressions" },
        { nameof(SurrogateOptions.MaxExtendedProperties), "extended-properties" },
        { nameof(SurrogateOptions.MaxRows), "orders" },
        { nameof(SurrogateOptions.MaxTables), "orders" },
        { nameof(SurrogateOptions.MaxTotalBytes), "orders" },
        { nameof(SurrogateOptions.MaxStringLength), "strings" },
    };

    [Theory]
    [MemberData(nameof(Limits))]
    public void Each_limit_is_enforced_on_read_and_named_in_the_message(string option, string fixture)
    {
        var payload = DataSetSerializer.Serialize(Create(fixture));
        Assert.NotNull(DataSetSerializer.Deserialize(payload)); // within the defaults
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, Tight(option)));
        Assert.Contains("exceeds a limit", error.Message, StringComparison.Ordinal);
        Assert.Contains($"SurrogateOptions.{option}", error.Message, StringComparison.Ordinal);
        var fromReader = Record.Exception(() => ReadAll(payload, Tight(option)));
        Assert.True(fromReader is null or DataSetSurrogateException, $"reader: {fromReader}");
    }

    [Fact]
    public void A_corrupted_block_names_its_table_column_and_row_block()
    {
        var (payload, block) = TenBlocks();
        // Column D of block 3 loses its last value: its fixed-width stream is eight bytes short of 1,000 doubles.
        var inner = payload.AsSpan(block.ValueStart, block.End - block.ValueStart);
        var column = ProtoWire.Fields(inner).Where(f => f.Number == 3).ElementAt(1);
        var data = inner[column.ValueStart..column.End];
        var values = ProtoWire.Fields(data).Single(f => f.Number == 4);
        byte[] shortData = [.. data[..values.Start], .. ProtoWire.LengthDelimited(4, data[values.ValueStart..(values.End - 8)]), .. data[values.End..]];
        var shortBlock = ProtoWire.Replace(inner, column, ProtoWire.LengthDelimited(3, shortData));
        var corrupt = ProtoWire.Replace(payload, block, ProtoWire.LengthDelimited(7, shortBlock));
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(corrupt));
        Assert.Contains("(table 'RB', column 'D', row block 3)", error.Message, StringComparison.Ordinal);
        Assert.Equal(("RB", "D", 3), (error.Table, error.Column, error.RowBlock));
    }

    [Fact]
    public void A_block_cut_short_names_its_table_and_row_block()
    {
        var (payload, block) = TenBlocks();
        var cut = payload[..((block.ValueStart + block.End) / 2)];
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(cut));
        Assert.Contains("table 'RB'", error.Message, StringComparison.Ordinal);
        Assert.Contains("row block 3", error.Message, StringComparison.Ordinal);
        Assert.Equal(("RB", 3), (error.Table, error.RowBlock));
    }

    private static (byte[] Payload, ProtoWire.Field Block) TenBlocks()
    {
        var t = new DataTable("RB");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("D", typeof(double));
        for (var i = 0; i < 10_000; i++)
        {
            t.Rows.Add(i, i * 0.5);
        }

        var payload = DataSetSerializer.Serialize(t, SurrogateOptions.Default with { RowsPerBlock = 1000 });
        return (payload, ProtoWire.Fields(payload).Where(f => f.Number == 7).ElementAt(3));
    }

    private static SurrogateOptions Tight(string option) => option switch
    {
        nameof(SurrogateOptions.MaxColumnsPerTable) => SurrogateOptions.Default with { MaxColumnsPerTable = 1 },
        nameof(SurrogateOptions.MaxBinaryLength) => SurrogateOptions.Default with { MaxBinaryLength = 10 },
        nameof(SurrogateOptions.MaxRelations) => SurrogateOptions.Default with { MaxRelations = 0 },
        nameof(SurrogateOptions.MaxConstraints) => SurrogateOptions.Default with { MaxConstraints = 0 },
        nameof(SurrogateOptions.MaxNameLength) => SurrogateOptions.Default with { MaxNameLength = 20 },
        nameof(SurrogateOptions.MaxExpressionLength) => SurrogateOptions.Default with { MaxExpressionLength = 5 },
        nameof(SurrogateOptions.MaxExtendedProperties) => SurrogateOptions.Default with { MaxExtendedProperties = 2 },
        nameof(SurrogateOptions.MaxRows) => SurrogateOptions.Default with { MaxRows = 100 },
        nameof(SurrogateOptions.MaxTables) => SurrogateOptions.Default with { MaxTables = 1 },
        nameof(SurrogateOptions.MaxTotalBytes) => SurrogateOptions.Default with { MaxTotalBytes = 1000 },
        nameof(SurrogateOptions.MaxStringLength) => SurrogateOptions.Default with { MaxStringLength = 100 },
        _ => throw new ArgumentOutOfRangeException(nameof(option)),
    };

    private static DataSet Create(string fixture)
    {
        switch (fixture)
        {
            case "binary":
                var binary = new DataSet("B");
                binary.Tables.Add("T").Columns.Add("Bytes", typeof(byte[]));
                binary.Tables[0].Rows.Add(new byte[100]);
                return binary;
            case "long-name":
                var named = new DataSet("N");
                named.Tables.Add(new string('n', 40));
                return named;
            case "extended-properties":
                var extended = new DataSet("E");
                extended.Tables.Add("T");
                for (var i = 0; i < 3; i++)
                {
                    extended.ExtendedProperties["p" + i] = i;
                }

                return extended;
            case "orders":
                return FidelityFixtures.Orders(300);
            default:
                return FidelityFixtures.Create(fixture);
        }
    }

    private static void ReadAll(byte[] payload, SurrogateOptions options)
    {
        using var reader = DataSetSerializer.CreateReader(new ReadOnlySequence<byte>(payload), options);
        do
        {
            while (reader.Read())
            {
            }
        }
        while (reader.NextResult());
    }
}
