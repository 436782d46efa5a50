using System.Data;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>
/// Expression text is split into tokens as DataSet's own lexer splits it, so quoted names and dates cannot hide a
/// Convert() whose type name the parser would hand to Type.GetType.
/// </summary>
public sealed class ExpressionGuardTests
{
    private const string Mail = "'System.Net.Mail.SmtpClient, System.Net.Mail'";
    private const string Allowed = "`a'` + Convert(Qty, 'System.String') + `'`";

    public static TheoryData<string> Hostile => new()
    {
        // A quote inside a `name` used to open a "string" for the guard that the parser never sees.
        $"`a'` + Convert(Qty, {Mail}) + `'`",
        $"[a'] + Convert(Qty, {Mail}) + [']",
        $"`a'``'` + Convert(Qty, {Mail})",
        // Quoted names call functions too.
        $"[Convert](Qty, {Mail})",
        $"`CONVERT`(Qty, {Mail})",
        $"convert\n(Qty, {Mail})",
        // A quote inside a #date# is no string either.
        $"IIF(#1/1/2000'# > #1/1/1999#, Convert(Qty, {Mail}), '')",
        // A type named by a name, or by more than one literal.
        "Convert(Qty, [System.Net.Mail.SmtpClient, System.Net.Mail])",
        $"Convert(Qty, 'System.String', {Mail})",
        // Anything the lexer would not end where we do: every raw convert( must be a checked call.
        $"'x' + 'convert(Qty, {Mail.Replace("'", "''", StringComparison.Ordinal)})'",
    };

    [Theory]
    [MemberData(nameof(Hostile))]
    public void The_reader_refuses_a_convert_hidden_from_a_naive_scan_and_loads_nothing(string expression)
    {
        var payload = DataSetSerializer.Serialize(WithExpression(Allowed));
        var hostile = SecurityTests.ReplaceUtf8(payload, Allowed, expression);
        // The legitimate payload first, as SecurityTests does: the reader's own dependencies load on its first use in
        // the process, which run alone (or first) this case would otherwise be; the refusal must load nothing more.
        DataSetSerializer.Deserialize(payload);
        var loads = AssemblyLoads.OnThisThread(() =>
            Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(hostile)));
        Assert.Empty(loads);
    }

    [Theory]
    [InlineData($"`a'` + Convert(Qty, {Mail}) + `'`")]
    [InlineData($"[Convert](Qty, {Mail})")]
    [InlineData($"`CONVERT`(Qty, {Mail})")]
    public void The_writer_refuses_what_the_runtime_accepts_but_the_reader_would_refuse(string expression)
    {
        // The runtime parses and binds without resolving the type; it loads the assembly on first evaluation.
        var ds = WithExpression(expression);
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(ds));
        Assert.Equal("L", error.Column);
    }

    [Theory]
    [InlineData(Allowed)]
    [InlineData("[a'] + Convert(Qty, 'System.String') + [']")]
    [InlineData("IIF(Qty > 1, 'it''s (big)', `a'`) + [Convert\\]x]")]
    [InlineData("IIF(#1/1/2000# < #2/1/2000#, Convert(Qty, 'System.Int64'), 0)")]
    [InlineData("`CONVERT` (Qty, 'System.Decimal')")]
    public void Legitimate_quoting_still_round_trips(string expression)
    {
        var ds = WithExpression(expression);
        ds.Tables[0].Rows.Add(7, "p", "q", "r");
        var result = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds));
        Assert.Equal(expression, result.Tables[0].Columns["L"]!.Expression);
        Assert.Equal(ds.Tables[0].Rows[0]["L"], result.Tables[0].Rows[0]["L"]);
    }

    private static DataSet WithExpression(string expression)
    {
        var ds = new DataSet("B");
        var t = ds.Tables.Add("T");
        t.Columns.Add("Qty", typeof(int));
        t.Columns.Add("a'", typeof(string));
        t.Columns.Add("'", typeof(string));
        t.Columns.Add("Convert]x", typeof(string));
        t.Columns.Add("L", typeof(string), expression);
        return ds;
    }
}
