namespace Surrogate.Tests;

/// <summary>An option that makes no sense is refused where it is set, naming the property, whether by init or by <c>with</c>.</summary>
public sealed class OptionsTests
{
    public static TheoryData<string, Func<SurrogateOptions, SurrogateOptions>> Nonsense() => new()
    {
        { nameof(SurrogateOptions.MaxTables), o => o with { MaxTables = 0 } },
        { nameof(SurrogateOptions.MaxColumnsPerTable), o => o with { MaxColumnsPerTable = 0 } },
        { nameof(SurrogateOptions.MaxRows), o => o with { MaxRows = -1 } },
        { nameof(SurrogateOptions.MaxTotalBytes), o => o with { MaxTotalBytes = 0 } },
        { nameof(SurrogateOptions.MaxStringLength), o => o with { MaxStringLength = -1 } },
        { nameof(SurrogateOptions.MaxBinaryLength), o => o with { MaxBinaryLength = int.MinValue } },
        { nameof(SurrogateOptions.MaxRelations), o => o with { MaxRelations = -1 } },
        { nameof(SurrogateOptions.MaxConstraints), o => o with { MaxConstraints = -1 } },
        { nameof(SurrogateOptions.MaxNameLength), o => o with { MaxNameLength = 0 } },
        { nameof(SurrogateOptions.MaxExpressionLength), o => o with { MaxExpressionLength = -5 } },
        { nameof(SurrogateOptions.MaxExtendedProperties), o => o with { MaxExtendedProperties = -1 } },
        { nameof(SurrogateOptions.RowsPerBlock), o => o with { RowsPerBlock = 0 } },
        { nameof(SurrogateOptions.RowsPerBlock), o => o with { RowsPerBlock = SurrogateOptions.MaxRowsPerBlock + 1 } },
        { nameof(SurrogateOptions.BlockByteBudget), o => o with { BlockByteBudget = 0 } },
    };

    [Theory]
    [MemberData(nameof(Nonsense))]
    public void A_value_that_makes_no_sense_is_refused_naming_the_option(string option, Func<SurrogateOptions, SurrogateOptions> set)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => set(SurrogateOptions.Default));
        Assert.Equal(option, ex.ParamName);
    }

    [Fact]
    public void Null_extra_column_types_are_refused()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => new SurrogateOptions { ExtraColumnTypes = null! });
        Assert.Equal(nameof(SurrogateOptions.ExtraColumnTypes), ex.ParamName);
    }

    [Fact]
    public void Zero_refuses_every_such_thing_where_a_payload_can_do_without_it()
    {
        var options = new SurrogateOptions
        {
            MaxRows = 0, MaxStringLength = 0, MaxBinaryLength = 0, MaxRelations = 0, MaxConstraints = 0,
            MaxExpressionLength = 0, MaxExtendedProperties = 0, RowsPerBlock = SurrogateOptions.MaxRowsPerBlock, BlockByteBudget = 1,
        };
        var table = new System.Data.DataTable("Empty");
        table.Columns.Add("Id", typeof(int));
        var result = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table, options), options);
        Assert.Equal("Empty", result.TableName);
        table.Rows.Add(1);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table, options), options));
    }
}
