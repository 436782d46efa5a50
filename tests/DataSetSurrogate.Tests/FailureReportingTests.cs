using System.Buffers;
using System.Data;
using ProtoBuf;

namespace Surrogate.Tests;

/// <summary>
/// What the input causes is reported as <see cref="DataSetSurrogateException"/> with its position; a bug (ours, or in a
/// delegate or reader the caller hands in) surfaces as itself, never disguised as "the payload could not be processed".
/// </summary>
public sealed class FailureReportingTests
{
    public static TheoryData<string, bool> Failures()
    {
        var data = new TheoryData<string, bool>();
        foreach (var failure in Thrown.Keys)
        {
            data.Add(failure, failure.EndsWith("(input)", StringComparison.Ordinal));
        }

        return data;
    }

    /// <summary>Real failures, thrown where they would be (so the throwing method is known), by what they stand for.</summary>
    private static readonly Dictionary<string, Func<Exception>> Thrown = new(StringComparer.Ordinal)
    {
        ["the codec's refusal (input)"] = () => Catch(() => throw new DataSetSurrogateException("refused")),
        ["malformed protobuf (input)"] = () => Catch(() => throw new ProtoException("malformed")),
        ["a length beyond the bytes, from protobuf-net (input)"] = () => Catch(() => DataSetSerializer.CreateReader(new ReadOnlySequence<byte>([0x0D, 0x44, 0x53, 0x53, 0x50, 0x10, 0x01, 0x18, 0x01, 0x2A, 0x7F])).Read(), unwrap: true),
        ["a stream that ends early (input)"] = () => Catch(() => throw new EndOfStreamException()),
        ["a violated constraint (input)"] = () => Catch(() => throw new ConstraintException()),
        ["a duplicate name (input)"] = () => Catch(() => new DataTable { Columns = { "a", "a" } }),
        ["a value of the wrong type (input)"] = () => Catch(() => throw new InvalidCastException()),
        ["an unparsable value (input)"] = () => Catch(() => throw new FormatException()),
        ["an out-of-range value (input)"] = () => Catch(() => _ = checked((int)Environment.TickCount64 + long.MaxValue)),
        ["out-of-range ticks (input)"] = () => Catch(() => _ = new DateTime(long.MaxValue)),
        ["an unknown locale (input)"] = () => Catch(() => System.Globalization.CultureInfo.GetCultureInfo("not a culture!")),
        ["a SqlDecimal System.Data refuses (input)"] = () => Catch(() => _ = new System.Data.SqlTypes.SqlDecimal(99, 0, true, 1, 0, 0, 0)),
        ["a row position System.Data refuses (input)"] = () => Catch(() => _ = new DataTable().Rows[0]),
        ["a null dereference"] = () => Catch(() => _ = ((string?)null)!.Length),
        ["an index outside our own array"] = () => Catch(() => _ = Array.Empty<int>()[1]),
        ["our own state (an empty stack popped)"] = () => Catch(() => new Stack<int>().Pop()),
        ["our own state (thrown by us)"] = () => Catch(() => throw new InvalidOperationException()),
        ["a disposed reader"] = () => Catch(() => throw new ObjectDisposedException("reader")),
        ["a null argument"] = () => Catch(() => throw new ArgumentNullException("value")),
        ["the caller's stream failing"] = () => Catch(() => throw new IOException("the connection dropped")),
        ["cancellation"] = () => Catch(() => throw new OperationCanceledException()),
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public void Only_failures_the_input_can_cause_are_wrapped(string failure, bool wrapped) =>
        Assert.Equal(wrapped, DataSetSurrogateException.IsInputFailure(Thrown[failure]()));

    private static Exception Catch(Action action, bool unwrap = false)
    {
        try
        {
            action();
        }
        catch (Exception ex)
        {
            return unwrap && ex is DataSetSurrogateException { InnerException: { } inner } ? inner : ex;
        }

        throw new InvalidOperationException("nothing was thrown");
    }

    [Fact]
    public void A_bug_in_a_column_decoder_surfaces_as_itself_and_the_target_is_left_empty()
    {
        var payload = DataSetSerializer.Serialize(Points(), Options());
        var target = new DataSet();
        var options = Options(decode: Buggy<byte[], Point>);
        Assert.Throws<NullReferenceException>(() => DataSetSerializer.DeserializeInto(payload, target, options));
        Assert.Equal(0, target.Tables["P"]!.Rows.Count);
        Assert.Throws<NullReferenceException>(() => DataSetSerializer.Deserialize(new ReadOnlySequence<byte>(payload), options));

        using var reader = DataSetSerializer.CreateReader(new ReadOnlySequence<byte>(payload), options);
        Assert.Throws<NullReferenceException>(() => ReadAll(reader));
    }

    [Fact]
    public void Bytes_a_column_decoder_refuses_are_reported_with_table_column_and_block()
    {
        var options = Options(decode: _ => throw new FormatException("not a point"));
        var payload = DataSetSerializer.Serialize(Points(), options);
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, options));
        Assert.Equal(("P", "Where", 0), (error.Table, error.Column, error.RowBlock));
        Assert.IsType<FormatException>(error.InnerException);
    }

    [Fact]
    public void A_bug_in_a_column_encoder_surfaces_as_itself()
    {
        var options = Options(encode: Buggy<Point, byte[]>);
        Assert.Throws<NullReferenceException>(() => DataSetSerializer.Serialize(Points(), options));
        Assert.Throws<NullReferenceException>(() => DataSetSerializer.Serialize(Points().CreateDataReader(), options));
    }

    [Fact]
    public void A_failing_source_reader_surfaces_as_itself()
    {
        var error = Assert.Throws<InvalidOperationException>(() => DataSetSerializer.Serialize(new FailingReader()));
        Assert.Equal("the database connection was lost", error.Message);
    }

    private static void ReadAll(System.Data.Common.DbDataReader reader)
    {
        while (reader.Read())
        {
            _ = reader.GetValue(0);
        }
    }

    /// <summary>A delegate with a bug: it dereferences a null it did not expect.</summary>
    private static TResult Buggy<T, TResult>(T value)
    {
        string? lookup = value is null ? "" : null;
        return lookup!.Length > 0 ? default! : default!;
    }

    private static DataSet Points()
    {
        var ds = new DataSet("D");
        var table = ds.Tables.Add("P");
        table.Columns.Add("Where", typeof(Point));
        table.Rows.Add(new Point(1, 2));
        return ds;
    }

    private static SurrogateOptions Options(Func<Point, byte[]>? encode = null, Func<byte[], Point>? decode = null) =>
        SurrogateOptions.Default with
        {
            ExtraColumnTypes = [SurrogateColumnType.ForBlob("point", encode ?? (p => [(byte)p.X, (byte)p.Y]), decode ?? (b => new Point(b[0], b[1])))],
        };

    private sealed record Point(int X, int Y);

    /// <summary>A reader whose source fails part-way, as a database reader does when its connection drops.</summary>
    private sealed class FailingReader : System.Data.Common.DbDataReader
    {
        public override int FieldCount => 1;
        public override bool HasRows => true;
        public override bool IsClosed => false;
        public override int RecordsAffected => -1;
        public override int Depth => 0;
        public override object this[int ordinal] => GetValue(ordinal);
        public override object this[string name] => GetValue(0);
        public override bool Read() => throw new InvalidOperationException("the database connection was lost");
        public override bool NextResult() => false;
        public override string GetName(int ordinal) => "Id";
        public override int GetOrdinal(string name) => 0;
        public override Type GetFieldType(int ordinal) => typeof(int);
        public override string GetDataTypeName(int ordinal) => "int";
        public override object GetValue(int ordinal) => 0;
        public override int GetValues(object[] values) => 0;
        public override bool IsDBNull(int ordinal) => false;
        public override bool GetBoolean(int ordinal) => throw new NotSupportedException();
        public override byte GetByte(int ordinal) => throw new NotSupportedException();
        public override long GetBytes(int ordinal, long dataOffset, byte[]? buffer, int bufferOffset, int length) => throw new NotSupportedException();
        public override char GetChar(int ordinal) => throw new NotSupportedException();
        public override long GetChars(int ordinal, long dataOffset, char[]? buffer, int bufferOffset, int length) => throw new NotSupportedException();
        public override DateTime GetDateTime(int ordinal) => throw new NotSupportedException();
        public override decimal GetDecimal(int ordinal) => throw new NotSupportedException();
        public override double GetDouble(int ordinal) => throw new NotSupportedException();
        public override float GetFloat(int ordinal) => throw new NotSupportedException();
        public override Guid GetGuid(int ordinal) => throw new NotSupportedException();
        public override short GetInt16(int ordinal) => throw new NotSupportedException();
        public override int GetInt32(int ordinal) => throw new NotSupportedException();
        public override long GetInt64(int ordinal) => throw new NotSupportedException();
        public override string GetString(int ordinal) => throw new NotSupportedException();
        public override System.Collections.IEnumerator GetEnumerator() => throw new NotSupportedException();
        public override DataTable? GetSchemaTable() => null;
    }
}
