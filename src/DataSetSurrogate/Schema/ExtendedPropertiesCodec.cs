using System.Collections;
using System.Data;
using ProtoBuf;
using Surrogate.Columns;
using Surrogate.Wire;

namespace Surrogate.Schema;

/// <summary>
/// Extended properties travel as (string key, tagged value) pairs. Keys must be strings; values must be null or a
/// type of the closed table (DataSet XML turns both into strings; arbitrary types are refused).
/// </summary>
internal static class ExtendedPropertiesCodec
{
    // The owner ("table", say) and its name are put together only for an error message.
    public static void Write(ref WireWriter writer, int field, PropertyCollection properties, string owner, string? ownerName, ColumnValues scratch)
    {
        if (properties.Count == 0)
        {
            return;
        }

        // PropertyCollection is a Hashtable whose order follows per-process randomized string hashes: sorting the keys
        // makes the same DataSet give the same bytes in every process.
        var entries = new KeyValuePair<string, object?>[properties.Count];
        var count = 0;
        foreach (DictionaryEntry entry in properties)
        {
            if (entry.Key is not string key)
            {
                Throw.Invalid($"An extended property key of {Describe(owner, ownerName)} is a {entry.Key.GetType()}; only string keys are written.");
                return;
            }

            if (entry.Value is not null && !ValueCodec.IsAllowed(entry.Value))
            {
                Throw.Invalid($"Extended property '{key}' of {Describe(owner, ownerName)} holds a {entry.Value.GetType()}, which is not in the closed set of value types.");
            }

            entries[count++] = new(key, entry.Value);
        }

        Array.Sort(entries, static (a, b) => string.CompareOrdinal(a.Key, b.Key));
        foreach (var (key, value) in entries)
        {
            var token = writer.BeginMessage(field, key.Length + 16);
            writer.String(PropertyField.Key, key);
            if (value is not null and not DBNull)
            {
                ValueCodec.Write(ref writer, PropertyField.Value, value, scratch);
            }

            writer.EndMessage(token);
        }
    }

    private static string Describe(string owner, string? name) => name is null ? owner : $"{owner} '{name}'";

    /// <summary>Reads one Property message and adds it to the list (the reader is on its field header).</summary>
    public static void Read(ref ProtoReader.State state, List<KeyValuePair<string, object?>> into, SurrogateOptions options)
    {
        if (into.Count >= options.MaxExtendedProperties)
        {
            Throw.Limit("extended properties", into.Count + 1, options.MaxExtendedProperties, nameof(SurrogateOptions.MaxExtendedProperties));
        }

        string? key = null;
        object? value = null;
        var token = state.StartSubItem();
        int field;
        while ((field = state.ReadFieldHeader()) > 0)
        {
            switch (field)
            {
                case PropertyField.Key:
                    key = ProtoRead.Text(ref state, options.MaxNameLength, "extended property key", nameof(SurrogateOptions.MaxNameLength));
                    break;
                case PropertyField.Value:
                    value = ValueCodec.Read(ref state, options, new ColumnCursor());
                    break;
                default:
                    state.SkipField();
                    break;
            }
        }

        state.EndSubItem(token);
        into.Add(new(key ?? Throw.Invalid<string>("An extended property has no key."), value));
    }

    public static void Apply(PropertyCollection target, List<KeyValuePair<string, object?>>? properties)
    {
        if (properties is null)
        {
            return;
        }

        foreach (var (key, value) in properties)
        {
            target[key] = value;
        }
    }
}
