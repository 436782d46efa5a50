using System.Data;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace Surrogate.Tests;

/// <summary>Another language reads our payloads with nothing but the published .proto and its protobuf library.</summary>
public sealed class CrossLanguageTests
{
    private const string Python = "/usr/bin/python3"; // Debian's interpreter, which has python3-protobuf

    [Fact]
    public void Python_protobuf_decodes_a_payload_with_the_published_proto()
    {
        var ds = new DataSet("Cross");
        var t = ds.Tables.Add("People");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("Name", typeof(string));
        t.Columns.Add("City", typeof(string));
        string[] cities = ["Oslo", "Lima", "Oslo", "Oslo", "Lima", "Oslo"];
        for (var i = 0; i < 600; i++)
        {
            t.Rows.Add(i * 3, "person " + i, cities[i % cities.Length]);
        }

        t.AcceptChanges();
        t.Rows[1]["Name"] = "changed";
        var other = ds.Tables.Add("Other");
        other.Columns.Add("Code", typeof(long));
        other.Rows.Add(-5L);

        using var doc = DecodeWithPython(ds);
        var root = doc.RootElement;
        Assert.Equal(0x50535344u, root.GetProperty("magic").GetUInt32());
        Assert.Equal(1, root.GetProperty("version").GetInt32());
        Assert.Equal("Cross", root.GetProperty("name").GetString());
        var people = root.GetProperty("tables")[0];
        Assert.Equal("People", people.GetProperty("name").GetString());
        Assert.Equal(["Id", "Name", "City"], people.GetProperty("columns").EnumerateArray().Select(e => e.GetString()!));
        Assert.Equal(600, people.GetProperty("rows").GetInt32());
        var values = people.GetProperty("values");
        Assert.Equal(Enumerable.Range(0, 600).Select(i => (long)i * 3), values.GetProperty("Id").EnumerateArray().Select(e => e.GetInt64()));
        Assert.Equal(t.Rows.Cast<DataRow>().Select(r => (string)r["City"]), values.GetProperty("City").EnumerateArray().Select(e => e.GetString()!));
        Assert.Equal("changed", values.GetProperty("Name")[1].GetString());
        Assert.Equal("ROW_STATE_MODIFIED", people.GetProperty("states")[1].GetString());
        Assert.Equal(-5, root.GetProperty("tables")[1].GetProperty("values").GetProperty("Code")[0].GetInt64());
    }

    [Fact]
    public void Python_decodes_fixed_width_temporal_and_binary_cells_nulls_and_original_values()
    {
        var ds = new DataSet("Typed");
        var t = ds.Tables.Add("Cells");
        t.Columns.Add("Price", typeof(double));
        t.Columns.Add("Amount", typeof(decimal));
        t.Columns.Add("When", typeof(DateTime));
        t.Columns.Add("Key", typeof(Guid));
        t.Columns.Add("Blob", typeof(byte[]));
        t.Columns.Add("Ratio", typeof(float));
        var key = new Guid("0f8fad5b-d9cb-469f-a165-70867728950e");
        t.Rows.Add(1.5, 1.10m, new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567), key, new byte[] { 0, 255, 16 }, -0.0f);
        t.Rows.Add(double.NaN, -12345.678m, new DateTime(1999, 12, 31, 8, 0, 0, DateTimeKind.Local), Guid.Empty, Array.Empty<byte>(), float.PositiveInfinity);
        t.Rows.Add(DBNull.Value, DBNull.Value, DBNull.Value, DBNull.Value, DBNull.Value, DBNull.Value);
        t.Rows.Add(-0.0, decimal.MaxValue, DateTime.MinValue, key, new byte[] { 7 }, float.Epsilon);
        t.AcceptChanges();
        t.Rows[0]["Price"] = double.NegativeInfinity;
        t.Rows[0]["Amount"] = 2.000m;

        using var doc = DecodeWithPython(ds);
        var cells = doc.RootElement.GetProperty("tables")[0];
        Assert.Equal(["DOUBLE", "DECIMAL", "DATE_TIME", "GUID", "BYTE_ARRAY", "SINGLE"],
            cells.GetProperty("types").EnumerateArray().Select(e => e.GetString()!["TYPE_TAG_".Length..]));
        var values = cells.GetProperty("values");
        // Bit for bit, as the DataTable holds them (it stores -0.0 as 0.0 itself).
        Assert.Equal(Bits(t, "Price"), values.GetProperty("Price").EnumerateArray().Select(e => Double(e) is { } d ? BitConverter.DoubleToInt64Bits(d) : (long?)null));
        Assert.Equal(["2.000", "-12345.678", null, decimal.MaxValue.ToString(CultureInfo.InvariantCulture)], values.GetProperty("Amount").EnumerateArray().Select(Text));
        for (var row = 0; row < 4; row++)
        {
            var cell = values.GetProperty("When")[row];
            if (t.Rows[row]["When"] is DateTime when)
            {
                Assert.Equal(when.Ticks, cell.GetProperty("ticks").GetInt64());
                Assert.Equal((int)when.Kind, cell.GetProperty("kind").GetInt32());
            }
            else
            {
                Assert.Equal(JsonValueKind.Null, cell.ValueKind);
            }
        }

        Assert.Equal([key.ToString(), Guid.Empty.ToString(), null, key.ToString()], values.GetProperty("Key").EnumerateArray().Select(Text));
        Assert.Equal(["00ff10", "", null, "07"], values.GetProperty("Blob").EnumerateArray().Select(Text));
        Assert.Equal(Bits(t, "Ratio"), values.GetProperty("Ratio").EnumerateArray().Select(e => Double(e) is { } d ? BitConverter.DoubleToInt64Bits((float)d) : (long?)null));
        Assert.Equal("ROW_STATE_MODIFIED", cells.GetProperty("states")[0].GetString());
        var originals = cells.GetProperty("originals");
        Assert.Equal(1.5, Double(originals.GetProperty("Price")[0]));
        Assert.Equal("1.10", originals.GetProperty("Amount")[0].GetString());
        Assert.Equal(1, originals.GetProperty("Price").GetArrayLength());
    }

    [Fact]
    public void Python_decodes_object_cells_by_their_value_tags()
    {
        var ds = new DataSet("Objects");
        var t = ds.Tables.Add("Bag");
        t.Columns.Add("Any", typeof(object));
        object[] values = [42, "text", 2.5, new DateTime(2020, 5, 6, 7, 8, 9, DateTimeKind.Utc), 1.10m, -7L, "text", new byte[] { 1, 2 }];
        foreach (var value in values)
        {
            t.Rows.Add(value);
        }

        t.Rows.Add(DBNull.Value);
        t.Rows.Add(Guid.Empty);

        using var doc = DecodeWithPython(ds);
        var cells = doc.RootElement.GetProperty("tables")[0].GetProperty("values").GetProperty("Any");
        Assert.Equal(42, cells[0].GetInt64());
        Assert.Equal("text", cells[1].GetString());
        Assert.Equal(2.5, Double(cells[2]));
        Assert.Equal(new DateTime(2020, 5, 6, 7, 8, 9).Ticks, cells[3].GetProperty("ticks").GetInt64());
        Assert.Equal("1.10", cells[4].GetString());
        Assert.Equal(-7, cells[5].GetInt64());
        Assert.Equal("text", cells[6].GetString());
        Assert.Equal("0102", cells[7].GetString());
        Assert.Equal(JsonValueKind.Null, cells[8].ValueKind);
        Assert.Equal(Guid.Empty.ToString(), cells[9].GetString());
    }

    /// <summary>A float as Python's repr wrote it (nan, inf, -inf, or a round-trip decimal), or null.</summary>
    private static double? Double(JsonElement e) => e.ValueKind == JsonValueKind.Null ? null : e.GetString() switch
    {
        "nan" => double.NaN,
        "inf" => double.PositiveInfinity,
        "-inf" => double.NegativeInfinity,
        var text => double.Parse(text!, CultureInfo.InvariantCulture),
    };

    private static IEnumerable<long?> Bits(DataTable t, string column) => t.Rows.Cast<DataRow>().Select(r => r[column] switch
    {
        double d => BitConverter.DoubleToInt64Bits(d),
        float f => BitConverter.DoubleToInt64Bits(f),
        _ => (long?)null,
    });

    private static string? Text(JsonElement e) => e.ValueKind == JsonValueKind.Null ? null : e.GetString();

    /// <summary>Generates Python bindings from docs/datasetsurrogate.proto with protoc and decodes the payload with them.</summary>
    /// <summary>
    /// Compressed row blocks, every codec, decoded by Python's own zlib, brotli, zstandard and lz4 (Debian's
    /// python3-brotli, python3-zstandard, python3-lz4) from the .proto's description: the same tables as the raw payload.
    /// </summary>
    [Theory]
    [InlineData(RowBlockCodec.Deflate, "BLOCK_CODEC_DEFLATE")]
    [InlineData(RowBlockCodec.Brotli, "BLOCK_CODEC_BROTLI")]
    [InlineData(RowBlockCodec.Zstd, "BLOCK_CODEC_ZSTD")]
    [InlineData(RowBlockCodec.Lz4, "BLOCK_CODEC_LZ4")]
    public void Python_decodes_compressed_row_blocks(RowBlockCodec codec, string name)
    {
        var ds = Fixtures.FidelityFixtures.Orders(1500);
        ds.Tables[0].Rows[2]["City"] = "changed";
        using var raw = DecodeWithPython(ds);
        using var compressed = DecodeWithPython(ds, new SurrogateOptions { BlockCodec = codec, RowsPerBlock = 1000 });
        var codecs = compressed.RootElement.GetProperty("block_codecs").EnumerateArray().Select(e => e.GetString()).ToList();
        Assert.Contains(name, codecs);
        Assert.All(raw.RootElement.GetProperty("block_codecs").EnumerateArray(), e => Assert.Equal("BLOCK_CODEC_NONE", e.GetString()));
        Assert.Equal(raw.RootElement.GetProperty("tables").GetRawText(), compressed.RootElement.GetProperty("tables").GetRawText());
    }

    private static JsonDocument DecodeWithPython(DataSet ds, SurrogateOptions? options = null)
    {
        var dir = Directory.CreateTempSubdirectory("dss-py").FullName;
        try
        {
            var payloadPath = Path.Combine(dir, "payload.bin");
            File.WriteAllBytes(payloadPath, DataSetSerializer.Serialize(ds, options));
            Run("protoc", $"--python_out={dir} -I {Path.Combine(RepositoryPaths.Root, "docs")} datasetsurrogate.proto",
                "protoc is missing: apt-get install protobuf-compiler");
            var script = Path.Combine(RepositoryPaths.TestSource, "python", "decode_payload.py");
            return JsonDocument.Parse(Run(Python, $"{script} {dir} {payloadPath}", "python3-protobuf, python3-brotli, python3-zstandard or python3-lz4 is missing: apt-get install them"));
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }

    private static string Run(string file, string arguments, string missing)
    {
        Process process;
        try
        {
            process = Process.Start(new ProcessStartInfo(file, arguments) { RedirectStandardOutput = true, RedirectStandardError = true })!;
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException($"{file} could not start ({ex.Message}); {missing}", ex);
        }

        using (process)
        {
            var output = process.StandardOutput.ReadToEndAsync();
            var error = process.StandardError.ReadToEnd();
            process.WaitForExit();
            Assert.True(process.ExitCode == 0, $"{file} {arguments} failed ({missing}?):\n{error}");
            return output.Result;
        }
    }
}
