using Surrogate.Fuzz;

// Commands (tests/Fuzz/run.sh drives them; docs/reliability.md has the campaign figures):
//   fuzz <target>                 run under afl-fuzz (SharpFuzz fork server); an escaping exception is a crash
//   replay <target> <file|dir>... check inputs without afl-fuzz: prints each outcome, exits 1 on any finding
//   seeds <out-dir> <golden-dir> [corpus-dir]  write seed payloads: golden files, fixtures, the DataSet XML corpus
return args switch
{
    ["fuzz", var target] when DecodeTargets.All.ContainsKey(target) => Fuzz(target),
    ["replay", var target, .. var paths] when DecodeTargets.All.ContainsKey(target) && paths.Length > 0 => Replay(target, paths),
    ["seeds", var output, var golden] => SeedPayloads.Write(output, golden, null),
    ["seeds", var output, var golden, var corpus] => SeedPayloads.Write(output, golden, corpus),
    _ => Usage(),
};

static int Fuzz(string target)
{
    // Out of process: a stack overflow or a hang kills only the child, and afl-fuzz records it.
    SharpFuzz.Fuzzer.OutOfProcess.Run(stream =>
    {
        using var buffer = new MemoryStream();
        stream.CopyTo(buffer);
        DecodeTargets.Check(target, buffer.ToArray());
    });
    return 0;
}

static int Replay(string target, string[] paths)
{
    var findings = 0;
    foreach (var file in paths.SelectMany<string, string>(p => Directory.Exists(p) ? Directory.EnumerateFiles(p).Order(StringComparer.Ordinal) : new[] { p }))
    {
        string outcome;
        try
        {
            outcome = DecodeTargets.Check(target, File.ReadAllBytes(file)) is { } refusal ? "refused: " + refusal : "loaded";
        }
        catch (Exception ex)
        {
            findings++;
            outcome = "FINDING: " + ex;
        }

        Console.WriteLine($"{file}: {outcome}");
    }

    return findings == 0 ? 0 : 1;
}

static int Usage()
{
    Console.Error.WriteLine($"usage: Surrogate.Fuzz fuzz <target> | replay <target> <file|dir>... | seeds <out-dir> <golden-dir> [corpus-dir]; targets: {string.Join(", ", DecodeTargets.All.Keys)}");
    return 2;
}
