using System.Text;

namespace Surrogate.Perf.Tests;

/// <summary>The rows of a CSV file the harness wrote (RFC 4180 quoting), each by column name.</summary>
internal static class CsvRows
{
    public static List<Dictionary<string, string>> Read(string path)
    {
        string[] lines = File.ReadAllLines(path);
        string[] header = lines[0].Split(',');
        return [.. lines.Skip(1).Select(l => header.Zip(Fields(l)).ToDictionary(p => p.First, p => p.Second))];
    }

    private static List<string> Fields(string line)
    {
        var fields = new List<string>();
        var field = new StringBuilder();
        bool quoted = false;
        for (int i = 0; i < line.Length; i++)
        {
            char c = line[i];
            if (quoted && c == '"' && i + 1 < line.Length && line[i + 1] == '"')
            {
                field.Append('"');
                i++;
            }
            else if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                fields.Add(field.ToString());
                field.Clear();
            }
            else
            {
                field.Append(c);
            }
        }

        fields.Add(field.ToString());
        return fields;
    }
}
