using System.Data;

namespace Surrogate.Tests;

/// <summary>Bugs the fuzzer found (tests/Fuzz/run.sh), each with the smallest payload that shows it; the fuzzer's
/// own inputs are in Regression/ and replayed by FuzzRegressionTests.</summary>
public sealed class FuzzFindingTests
{
    /// <summary>DataSet silently turns an AutoIncrement column of a non-integer type into Int32: a payload declaring
    /// a string column with AutoIncrement loaded as an Int32 column (whose MaxLength then failed any re-serialization).</summary>
    [Fact]
    public void An_auto_increment_column_of_a_type_dataset_does_not_allow_is_refused()
    {
        var table = new DataTable("T");
        var auto = table.Columns.Add("Auto", typeof(int));
        auto.AutoIncrement = true;
        var payload = DataSetSerializer.Serialize(table);
        byte[] intColumn = [0x0A, 0x04, (byte)'A', (byte)'u', (byte)'t', (byte)'o', 0x10, 0x07]; // name "Auto", type INT32
        var at = payload.AsSpan().IndexOf(intColumn);
        Assert.True(at > 0, "the column's name and type tag were not found in the payload");
        payload[at + intColumn.Length - 1] = 17; // type STRING

        var refusal = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.DeserializeTable(payload));
        Assert.Contains("AutoIncrement", refusal.Message, StringComparison.Ordinal);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload));
    }
}
