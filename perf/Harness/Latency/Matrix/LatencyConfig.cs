using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;

namespace Surrogate.Perf.Harness.Latency.Matrix;

/// <summary>
/// The latency command's parameters: timing per cell, the sizes, the base configuration, the dimensions varied one
/// at a time from it, any cross products, the load models' settings and the soak. Read from a named preset (embedded
/// <c>Presets/&lt;name&gt;.json</c>), from a JSON file (whose <c>"extends"</c> names the preset its top-level
/// properties replace), then overridden by command-line options.
/// </summary>
public sealed record LatencyConfig
{
    public static readonly IReadOnlyList<string> PresetNames = ["smoke", "full"];

    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Converters = { new JsonStringEnumConverter() },
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    };

    /// <summary><see cref="Json"/> indented, for the files a run writes (the process protocol needs one line per message).</summary>
    public static readonly JsonSerializerOptions JsonFile = new(Json) { WriteIndented = true };

    public string Name { get; init; } = "custom";

    public double WarmupSeconds { get; init; } = 1;

    public int WarmupCalls { get; init; } = 5;

    public double MeasureSeconds { get; init; } = 5;

    public int MinCalls { get; init; } = 10;

    public int MaxCalls { get; init; } = 1_000_000;

    public IReadOnlyList<int> Sizes { get; init; } = [10, 100, 1_000, 10_000, 100_000, 1_000_000];

    public BaseCell Base { get; init; } = new();

    /// <summary>Each dimension listed here is varied over its values with every other at <see cref="Base"/>, × every size.</summary>
    public DimensionValues Vary { get; init; } = new();

    /// <summary>Full cross products of the listed dimensions (the rest at <see cref="Base"/>), × the sizes.</summary>
    public IReadOnlyList<DimensionValues> Crosses { get; init; } = [];

    /// <summary>Open loop: calls offered per second.</summary>
    public double OpenLoopRate { get; init; } = 200;

    /// <summary>Open loop: client threads (each with its own channel) that take scheduled calls.</summary>
    public int OpenLoopWorkers { get; init; } = 8;

    /// <summary>Throughput: concurrent clients, each closed loop on its own channel.</summary>
    public int ThroughputClients { get; init; } = 8;

    /// <summary>The Remote scope's link rate (tc syntax); tbf at 10gbit leaves a veth pair practically unshaped.</summary>
    public string RemoteLinkRate { get; init; } = "10gbit";

    public SoakConfig Soak { get; init; } = new();

    /// <summary>The embedded preset <paramref name="name"/>.</summary>
    public static LatencyConfig Preset(string name) => Parse(PresetNode(name), $"preset '{name}'");

    /// <summary>Reads a config file: a preset named by <c>"extends"</c> (default <c>full</c>) with the file's top-level properties in place of its own.</summary>
    public static LatencyConfig Load(string path)
    {
        JsonObject file;
        try
        {
            file = JsonNode.Parse(File.ReadAllText(path), documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true }) as JsonObject
                ?? throw new ArgumentException($"{path}: the config must be a JSON object.");
        }
        catch (Exception e) when (e is JsonException or IOException or UnauthorizedAccessException)
        {
            throw new ArgumentException($"{path}: {e.Message}", e);
        }

        string extends = file["extends"]?.GetValue<string>() ?? "full";
        JsonObject merged = PresetNode(extends);
        foreach (var (key, value) in file.Where(p => p.Key != "extends").ToList())
        {
            file.Remove(key);
            merged[key] = value;
        }

        return Parse(merged, path);
    }

    /// <summary>Checks every value; throws <see cref="ArgumentException"/> naming the first bad one.</summary>
    public LatencyConfig Validate()
    {
        Check(WarmupSeconds >= 0, "warmupSeconds must not be negative");
        Check(MeasureSeconds > 0, "measureSeconds must be positive");
        Check(MinCalls >= 1 && MaxCalls >= MinCalls && WarmupCalls >= 1, "calls: warmupCalls >= 1 and 1 <= minCalls <= maxCalls");
        Check(Sizes.Count > 0 && Sizes.All(s => s is >= 1 and <= 16 << 20), "sizes: at least one, each from 1 byte to 16 MB");
        Check(OpenLoopRate is > 0 and <= 100_000 && OpenLoopWorkers is >= 1 and <= 256, "openLoopRate (0, 100000] and openLoopWorkers [1, 256]");
        Check(ThroughputClients is >= 1 and <= 256, "throughputClients from 1 to 256");
        Check(Crosses.All(c => c.Sizes is null || c.Sizes.All(s => s is >= 1 and <= 16 << 20)), "crosses: sizes from 1 byte to 16 MB");
        Soak.Validate();
        Surrogate.Perf.Harness.Hosting.LinkRate.Parse(RemoteLinkRate);
        return this;
    }

    private static void Check(bool ok, string message)
    {
        if (!ok)
        {
            throw new ArgumentException("Latency config: " + message + ".");
        }
    }

    private static JsonObject PresetNode(string name)
    {
        if (!PresetNames.Contains(name))
        {
            throw new ArgumentException($"Unknown preset '{name}'; known: {string.Join(", ", PresetNames)}.");
        }

        using Stream stream = Assembly.GetExecutingAssembly().GetManifestResourceStream($"latency-{name}.json")
            ?? throw new InvalidOperationException($"The preset '{name}' is not embedded.");
        return (JsonObject)JsonNode.Parse(stream, documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip })!;
    }

    private static LatencyConfig Parse(JsonObject node, string source)
    {
        try
        {
            return (node.Deserialize<LatencyConfig>(Json) ?? throw new ArgumentException($"{source}: empty config.")).Validate();
        }
        catch (JsonException e)
        {
            throw new ArgumentException($"{source}: {e.Message}", e);
        }
    }
}

/// <summary>The base configuration the one-at-a-time variations start from (Veldhoen's: SameMachine, NetTcp, PerCall, TwoWay, DataContractSerializer, byte[]).</summary>
public sealed record BaseCell
{
    public Scope Scope { get; init; } = Scope.SameMachine;
    public BindingKind Binding { get; init; } = BindingKind.NetTcp;
    public Security Security { get; init; } = Security.None;
    public Instancing Instancing { get; init; } = Instancing.PerCall;
    public CallMode CallMode { get; init; } = CallMode.TwoWay;
    public SerializerKind Serializer { get; init; } = SerializerKind.DataContract;
    public DataKind Data { get; init; } = DataKind.Bytes;
    public Transfer Transfer { get; init; } = Transfer.Buffered;
    public LoadModel Load { get; init; } = LoadModel.Closed;

    public LatencyCell At(int size) => new(Scope, Binding, Security, Instancing, CallMode, Serializer, Data, Transfer, Load, size);
}

/// <summary>Values per dimension; a null list leaves that dimension at the base value. <see cref="Sizes"/> replaces the config's sizes in a cross.</summary>
public sealed record DimensionValues
{
    public IReadOnlyList<Scope>? Scope { get; init; }
    public IReadOnlyList<BindingKind>? Binding { get; init; }
    public IReadOnlyList<Security>? Security { get; init; }
    public IReadOnlyList<Instancing>? Instancing { get; init; }
    public IReadOnlyList<CallMode>? CallMode { get; init; }
    public IReadOnlyList<SerializerKind>? Serializer { get; init; }
    public IReadOnlyList<DataKind>? Data { get; init; }
    public IReadOnlyList<Transfer>? Transfer { get; init; }
    public IReadOnlyList<LoadModel>? Load { get; init; }
    public IReadOnlyList<int>? Sizes { get; init; }
}

/// <summary>The soak: clients, duration, sampling, and the flat-memory criterion.</summary>
public sealed record SoakConfig
{
    public int Clients { get; init; } = 64;

    public double Seconds { get; init; } = 600;

    public double SampleSeconds { get; init; } = 5;

    /// <summary>Samples before this are warm-up; the criterion compares the first sample after it with the last.</summary>
    public double WarmupSeconds { get; init; } = 30;

    /// <summary>The DataSet's nominal size in bytes (rows of about 50 bytes).</summary>
    public int Size { get; init; } = 10_000;

    /// <summary>The retained heap at the end must be at most start × this + <see cref="HeapAllowanceBytes"/>.</summary>
    public double GrowthLimit { get; init; } = 1.1;

    public long HeapAllowanceBytes { get; init; } = 2 << 20;

    /// <summary>Open file descriptors at the end must be at most start + this.</summary>
    public int FdAllowance { get; init; } = 8;

    public void Validate()
    {
        if (Clients is < 1 or > 1024 || Seconds <= 0 || SampleSeconds <= 0 || WarmupSeconds < 0 || WarmupSeconds >= Seconds
            || Size is < 1 or > 16 << 20 || GrowthLimit < 1 || HeapAllowanceBytes < 0 || FdAllowance < 0)
        {
            throw new ArgumentException("Latency config: soak needs 1-1024 clients, seconds > warmupSeconds >= 0, sampleSeconds > 0, size 1 byte-16 MB, growthLimit >= 1, allowances >= 0.");
        }
    }
}
