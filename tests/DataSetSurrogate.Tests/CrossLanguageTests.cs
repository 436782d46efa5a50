using System.Data;
using System.Diagnostics;
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

        var dir = Directory.CreateTempSubdirectory("dss-py").FullName;
        try
        {
            var payloadPath = Path.Combine(dir, "payload.bin");
            File.WriteAllBytes(payloadPath, DataSetSerializer.Serialize(ds));
            Run("protoc", $"--python_out={dir} -I {Path.Combine(RepositoryPaths.Root, "docs")} datasetsurrogate.proto",
                "protoc is missing: apt-get install protobuf-compiler");
            var script = Path.Combine(RepositoryPaths.TestSource, "python", "decode_payload.py");
            var json = Run(Python, $"{script} {dir} {payloadPath}", "python3-protobuf is missing: apt-get install python3-protobuf");

            using var doc = JsonDocument.Parse(json);
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
