using System.Buffers;
using CsCheck;
using Surrogate.Fuzz;
using Surrogate.Tests.Fixtures;
using Surrogate.Tests.Generated;

namespace Surrogate.Tests;

/// <summary>
/// Generated DataSets (every column type, nullability, defaults, MaxLength, read-only, captions, mappings,
/// namespaces, keys, unique and foreign-key constraints with every rule, nested and self-nested relations,
/// expressions, extended properties, locales and case sensitivity; rows in every state with row and column errors)
/// survive serialize → deserialize field by field, and a data reader over the same payload shows each table's
/// current rows. CsCheck shrinks a failure to a small DataSet and prints it with its seed. Runs CsCheck's default
/// 100 cases per property (a few seconds); for a longer run set CsCheck_Time (seconds) or CsCheck_Iter, and
/// CsCheck_Seed to replay a printed seed.
/// </summary>
public sealed class PropertyRoundTripTests
{
    [Fact]
    public void A_generated_dataset_round_trips_field_by_field() =>
        SpecGens.DataSet.Sample(spec =>
        {
            var source = SpecBuilder.Build(spec);
            var payload = DataSetSerializer.Serialize(source, ValueGens.Options);
            DataSetAssert.Equivalent(source, DataSetSerializer.Deserialize(payload, ValueGens.Options));
            DataSetAssert.Equivalent(source, DataSetSerializer.Deserialize(AwkwardInput.Segmented(payload, 7), ValueGens.Options));
        }, print: spec => spec.ToString());

    [Fact]
    public void A_data_reader_over_a_generated_payload_shows_every_current_row() =>
        SpecGens.DataSet.Sample(spec =>
        {
            var source = SpecBuilder.Build(spec);
            var payload = DataSetSerializer.Serialize(source, ValueGens.Options);
            ReaderContents.Same(ReaderContents.Of(source), ReaderContents.Read(DataSetSerializer.CreateReader(new ReadOnlySequence<byte>(payload), ValueGens.Options)));
        }, print: spec => spec.ToString());

    [Fact]
    public void A_generated_table_round_trips_on_its_own() =>
        SpecGens.DataSet.Sample(spec =>
        {
            var table = SpecBuilder.Build(spec with { Relation = null }).Tables[0];
            if (table.ParentRelations.Count > 0)
            {
                table.DataSet!.Relations.Clear(); // a standalone table carries no relations
            }

            var result = DataSetSerializer.DeserializeTable(DataSetSerializer.Serialize(table, ValueGens.Options), ValueGens.Options);
            DataSetAssert.Equivalent(table, result);
        }, print: spec => spec.ToString());
}
