using System.Data;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text;
using Surrogate.Tests.Fixtures;

namespace Surrogate.Tests;

/// <summary>Hostile and broken payloads give the library's exception, fast, with no type loading.</summary>
public sealed class SecurityTests
{
    [Fact]
    public void No_type_names_travel_on_the_wire()
    {
        // "expressions" is left out: its Convert(x, 'System.String') is the user's expression text, checked
        // against the closed list on read (see Expressions_naming_types_outside_the_allow_list_are_refused).
        foreach (var name in FidelityFixtures.All.Select(f => (string)f[0]).Where(n => n != "expressions"))
        {
            var text = Encoding.Latin1.GetString(DataSetSerializer.Serialize(FidelityFixtures.Create(name)));
            Assert.DoesNotContain("System.", text, StringComparison.Ordinal);
            Assert.DoesNotContain("mscorlib", text, StringComparison.Ordinal);
            Assert.DoesNotContain("PublicKeyToken", text, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void A_tiny_payload_claiming_int_MaxValue_rows_fails_fast_without_allocating()
    {
        var payload = DataSetSerializer.Serialize(FidelityFixtures.Create("strings").Tables[0].Clone());
        var block = ProtoWire.LengthDelimited(7, [.. ProtoWire.Tag(1, 0), .. ProtoWire.Varint(int.MaxValue)]);
        var hostile = InsertBeforeTail(payload, block);
        Assert.True(hostile.Length < 200);

        var before = GC.GetAllocatedBytesForCurrentThread();
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(hostile));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < 4 << 20, $"allocated {allocated:N0} bytes for a {hostile.Length}-byte payload");
    }

    [Fact]
    public void A_length_prefix_beyond_the_input_is_refused_before_allocating()
    {
        var payload = DataSetSerializer.Serialize(FidelityFixtures.Create("strings"));
        var hostile = InsertBeforeTail(payload, [.. ProtoWire.Tag(7, 2), .. ProtoWire.Varint(int.MaxValue - 10), 1, 2, 3]);
        var before = GC.GetAllocatedBytesForCurrentThread();
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(hostile));
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 16 << 20);
    }

    internal static byte[] InsertBeforeTail(byte[] payload, byte[] field)
    {
        var fields = ProtoWire.Fields(payload);
        var tail = fields.LastOrDefault(f => f.Number == 6);
        var at = tail == default ? payload.Length : tail.Start;
        return [.. payload[..at], .. field, .. payload[at..]];
    }

    [Fact]
    public void Every_truncation_is_refused_with_the_library_exception()
    {
        var payload = DataSetSerializer.Serialize(FidelityFixtures.Create("row-errors"));
        for (var length = 0; length < payload.Length; length++)
        {
            var cut = payload[..length];
            var error = Record.Exception(() => DataSetSerializer.Deserialize(cut));
            Assert.True(error is DataSetSurrogateException, $"length {length}: {error?.GetType().Name ?? "no exception"}");
        }
    }

    [Fact]
    public void Wrong_magic_and_unknown_versions_are_refused()
    {
        var payload = DataSetSerializer.Serialize(FidelityFixtures.Create("strings"));
        var badMagic = (byte[])payload.Clone();
        badMagic[1] ^= 0xFF;
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(badMagic));

        var version = ProtoWire.Fields(payload).Single(f => f.Number == 2);
        var future = ProtoWire.Replace(payload, version, [.. ProtoWire.Tag(2, 0), .. ProtoWire.Varint(2)]);
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(future));
        Assert.Contains("version", error.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(Encoding.UTF8.GetBytes("<DataSet/>")));
    }

    [Theory]
    [InlineData("Convert(Qty, 'System.Diagnostics.Process')")]
    [InlineData("Convert(Qty, 'System.IO.FileInfo, System.IO.FileSystem')")]
    public void Expressions_naming_types_outside_the_allow_list_are_refused(string expression)
    {
        // Produce the payload with an allowed conversion, then swap the text as a hostile sender would.
        var ds = new DataSet();
        var t = ds.Tables.Add("T");
        t.Columns.Add("Qty", typeof(int));
        const string allowed = "Convert(Qty, 'System.String')";
        t.Columns.Add("Label", typeof(string), allowed);
        var payload = DataSetSerializer.Serialize(ds);
        var hostile = ReplaceUtf8(payload, allowed, expression);
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(hostile));
        Assert.Contains(expression.Split('\'')[1].Split(',')[0], error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Serializing_a_dataset_whose_expression_names_a_foreign_type_is_refused()
    {
        var ds = new DataSet();
        var t = ds.Tables.Add("T");
        t.Columns.Add("Qty", typeof(int));
        var column = t.Columns.Add("X", typeof(string));
        try
        {
            column.Expression = "Convert(Qty, 'System.Diagnostics.Process')";
        }
        catch (EvaluateException)
        {
            return; // The runtime itself refused it: nothing can be sent.
        }

        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(ds));
    }

    [Fact]
    public void A_lone_surrogate_is_refused_when_serializing_never_replaced()
    {
        var ds = new DataSet();
        ds.Tables.Add("T").Columns.Add("S", typeof(string));
        ds.Tables[0].Rows.Add("bad \uD800 half");
        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(ds));
        Assert.Equal("T", error.Table);
        Assert.Equal("S", error.Column);
    }

    [Fact]
    public void Object_columns_refuse_values_outside_the_closed_type_set()
    {
        var ds = new DataSet();
        var t = ds.Tables.Add("T");
        t.Columns.Add("O", typeof(object));
        t.Rows.Add(new System.Net.IPAddress(0x0100007F));
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(ds));
    }

    [Theory]
    [InlineData(0)] // None
    [InlineData(24)] // Object: values hold concrete types only
    [InlineData(25)] // Extension: no key travels with a property value
    [InlineData(26)] // unassigned
    [InlineData(99)] // unknown
    public void Extended_property_values_with_a_tag_outside_the_value_types_are_refused(int tag)
    {
        var ds = new DataSet("E");
        ds.Tables.Add("T");
        ds.ExtendedProperties["n"] = 42;
        var payload = DataSetSerializer.Serialize(ds);
        // Property { key "n", value { tag Int32 (7), ints [42] } }: only the tag byte changes, so no length does.
        byte[] property = [0x0A, 0x01, (byte)'n', 0x12];
        var at = payload.AsSpan().IndexOf(property) + property.Length + 1;
        Assert.Equal([0x08, 0x07], payload[at..(at + 2)]);
        var hostile = (byte[])payload.Clone();
        hostile[at + 1] = (byte)tag;

        var error = Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(hostile));
        Assert.Contains($"type tag {tag}", error.Message, StringComparison.Ordinal);
        Assert.Equal(42, DataSetSerializer.Deserialize(payload).ExtendedProperties["n"]);
    }

    [Fact]
    public void Column_types_outside_the_allow_list_are_refused_unless_registered()
    {
        var ds = new DataSet();
        var t = ds.Tables.Add("T");
        t.Columns.Add("Day", typeof(DayOfWeek));
        t.Rows.Add(DayOfWeek.Friday);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Serialize(ds));

        var options = SurrogateOptions.Default with { ExtraColumnTypes = [SurrogateColumnType.ForEnum<DayOfWeek>("day")] };
        var result = DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds, options), options);
        Assert.Equal(typeof(DayOfWeek), result.Tables[0].Columns["Day"]!.DataType);
        Assert.Equal(ds.Tables[0].Rows[0]["Day"], result.Tables[0].Rows[0]["Day"]);
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(DataSetSerializer.Serialize(ds, options)));
    }

    [Fact]
    public void Limits_are_enforced_on_read()
    {
        var payload = DataSetSerializer.Serialize(FidelityFixtures.Create("orders"));
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, SurrogateOptions.Default with { MaxRows = 100 }));
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, SurrogateOptions.Default with { MaxTables = 1 }));
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(payload, SurrogateOptions.Default with { MaxTotalBytes = 1000 }));
        var strings = DataSetSerializer.Serialize(FidelityFixtures.Create("strings"));
        Assert.Throws<DataSetSurrogateException>(() => DataSetSerializer.Deserialize(strings, SurrogateOptions.Default with { MaxStringLength = 1000 }));
    }

    [Fact]
    public void The_codec_assembly_references_no_unsafe_serializer_or_type_loading_api()
    {
        string[] banned =
        [
            "BinaryFormatter", "NetDataContractSerializer", "SoapFormatter", "LosFormatter", "ObjectStateFormatter",
            "Type.GetType", "Assembly.Load", "Assembly.LoadFrom", "Assembly.LoadFile", "XmlSerializer",
        ];
        var path = typeof(DataSetSerializer).Assembly.Location;
        using var pe = new PEReader(File.OpenRead(path));
        var metadata = pe.GetMetadataReader();
        var referenced = new List<string>();
        foreach (var handle in metadata.MemberReferences)
        {
            var member = metadata.GetMemberReference(handle);
            var parent = member.Parent.Kind == HandleKind.TypeReference
                ? metadata.GetString(metadata.GetTypeReference((TypeReferenceHandle)member.Parent).Name)
                : "";
            referenced.Add($"{parent}.{metadata.GetString(member.Name)}");
        }

        foreach (var handle in metadata.TypeReferences)
        {
            referenced.Add(metadata.GetString(metadata.GetTypeReference(handle).Name));
        }

        Assert.NotEmpty(referenced);
        foreach (var name in banned)
        {
            // Exact member names: typeof() compiles to Type.GetTypeFromHandle, which names no type from data.
            Assert.DoesNotContain(referenced, r => r == name || r.EndsWith("." + name, StringComparison.Ordinal) || r == name.Split('.')[^1] && !name.Contains('.'));
        }
    }

    [Fact]
    public void The_build_bans_every_type_and_assembly_loading_overload_and_the_docs_list_exactly_what_it_bans()
    {
        var banned = File.ReadAllLines(Path.Combine(RepositoryPaths.Root, "src", "BannedSymbols.txt"))
            .Where(l => l.Length > 0).Select(l => l.Split(';')[0]).ToHashSet(StringComparer.Ordinal);
        string[] required =
        [
            "M:System.Type.GetType(System.String,System.Func{System.Reflection.AssemblyName,System.Reflection.Assembly},System.Func{System.Reflection.Assembly,System.String,System.Boolean,System.Type})",
            "M:System.Type.GetType(System.String,System.Func{System.Reflection.AssemblyName,System.Reflection.Assembly},System.Func{System.Reflection.Assembly,System.String,System.Boolean,System.Type},System.Boolean,System.Boolean)",
            "M:System.Reflection.Assembly.LoadFile(System.String)",
            "M:System.Reflection.Assembly.UnsafeLoadFrom(System.String)",
            "M:System.Runtime.Loader.AssemblyLoadContext.LoadFromAssemblyName(System.Reflection.AssemblyName)",
            "M:System.Runtime.Loader.AssemblyLoadContext.LoadFromAssemblyPath(System.String)",
            "M:System.AppDomain.Load(System.String)",
            "M:System.Activator.CreateInstance(System.String,System.String)",
            "M:System.Type.ReflectionOnlyGetType(System.String,System.Boolean,System.Boolean)",
            "M:System.Reflection.Assembly.GetType(System.String)",
        ];
        Assert.All(required, id => Assert.Contains(id, banned));

        // Every overload of a banned member that takes a name, path, identifier, image or document is banned (creating an
        // instance of a Type object the code already holds is fine), among the members the runtime has.
        foreach (var group in banned.Where(id => id.StartsWith("M:", StringComparison.Ordinal)).GroupBy(id => id[2..id.IndexOf('(', StringComparison.Ordinal)]))
        {
            var typeName = group.Key[..group.Key.LastIndexOf('.')];
            var memberName = group.Key[(group.Key.LastIndexOf('.') + 1)..];
            var type = new[] { typeof(object), typeof(System.Data.DataSet), typeof(System.Runtime.Loader.AssemblyLoadContext) }
                .Select(t => t.Assembly.GetType(typeName)).FirstOrDefault(t => t is not null);
            Assert.NotNull(type);
            var overloads = type.GetMethods(BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                .Where(m => m.Name == memberName && m.GetParameters() is { Length: > 0 } parameters && parameters[0].ParameterType != typeof(Type));
            foreach (var overload in overloads)
            {
                var id = $"M:{typeName}.{memberName}({string.Join(",", overload.GetParameters().Select(p => DocId(p.ParameterType)))})";
                Assert.True(banned.Contains(id), $"{id} is not banned, though other overloads of {group.Key} are");
            }
        }

        var security = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "docs", "security.md"));
        var listed = security[security.IndexOf("### Banned in the build", StringComparison.Ordinal)..]
            .Split("```text\n")[1].Split("```")[0].Split('\n', StringSplitOptions.RemoveEmptyEntries).ToHashSet(StringComparer.Ordinal);
        Assert.Equal(banned.Order(StringComparer.Ordinal), listed.Order(StringComparer.Ordinal));
    }

    private static string DocId(Type type) => type switch
    {
        { IsArray: true } => DocId(type.GetElementType()!) + "[]",
        { IsGenericType: true } => $"{type.Namespace}.{type.Name[..type.Name.IndexOf('`', StringComparison.Ordinal)]}{{{string.Join(",", type.GetGenericArguments().Select(DocId))}}}",
        _ => type.FullName!,
    };

    [Fact]
    public void No_assembly_is_loaded_while_reading_hostile_payloads()
    {
        var seeds = new[] { "sql-types", "object-column", "constraints-and-relations" }
            .Select(n => DataSetSerializer.Serialize(FidelityFixtures.Create(n))).ToArray();
        DataSetSerializer.Deserialize(seeds[0]); // warm up every code path once
        var loads = AssemblyLoads.OnThisThread(() =>
        {
            foreach (var input in Mutations.Generate(seeds, count: 2_000, seed: 11))
            {
                try
                {
                    DataSetSerializer.Deserialize(input);
                }
                catch (DataSetSurrogateException)
                {
                }
            }
        });

        Assert.Empty(loads);
    }

    internal static byte[] ReplaceUtf8(byte[] payload, string from, string to)
    {
        // The expression sits inside a length-delimited column schema: rebuild the enclosing messages' lengths
        // by re-encoding the string field in place and fixing every enclosing length prefix.
        var fromBytes = Encoding.UTF8.GetBytes(from);
        var index = payload.AsSpan().IndexOf(fromBytes);
        Assert.True(index > 0);
        return ReEncode(payload, 0, payload.Length, index, fromBytes.Length, Encoding.UTF8.GetBytes(to));
    }

    private static byte[] ReEncode(byte[] message, int start, int end, int at, int oldLength, byte[] replacement)
    {
        var output = new List<byte>();
        foreach (var field in ProtoWire.Fields(message.AsSpan(start, end - start)))
        {
            var fieldStart = start + field.Start;
            var valueStart = start + field.ValueStart;
            var fieldEnd = start + field.End;
            if (field.WireType != 2 || at < valueStart || at >= fieldEnd)
            {
                output.AddRange(message[fieldStart..fieldEnd]);
                continue;
            }

            var inner = at == valueStart && oldLength == fieldEnd - valueStart
                ? replacement
                : ReEncode(message, valueStart, fieldEnd, at, oldLength, replacement);
            output.AddRange(ProtoWire.LengthDelimited(field.Number, inner));
        }

        return [.. output];
    }
}
