using System.Collections.Concurrent;
using System.Data;
using System.Globalization;
using System.Text;
using Surrogate.Perf.Harness.Latency.Matrix;

namespace Surrogate.Perf.Harness.Latency.Contracts;

/// <summary>
/// The payloads of each data type at a nominal size in bytes, deterministic so both sides agree, and what the service
/// measures of each (the two-way reply the client checks). Sizes: byte[] and Stream exactly <c>size</c> bytes; string
/// <c>size</c> ASCII characters; a container one member of <c>size</c>; a nested 1×3×3 hierarchy nine leaves sharing
/// <c>size</c>; a DataSet one table of about 50 bytes of values per row (<see cref="DataSetRows"/>).
/// </summary>
public static class Payloads
{
    private const int RowBytes = 50;
    private static readonly ConcurrentDictionary<int, DataSet> DataSets = new();

    public static byte[] Bytes(int size)
    {
        byte[] data = new byte[size];
        for (int i = 0; i < data.Length; i++)
        {
            data[i] = (byte)(i * 31 + 7);
        }

        return data;
    }

    public static string Text(int size) => string.Create(size, 0, static (span, _) =>
    {
        for (int i = 0; i < span.Length; i++)
        {
            span[i] = (char)('a' + (i % 26));
        }
    });

    /// <summary>A container (<paramref name="nested"/> false) or a 1×3×3 hierarchy; <paramref name="binary"/> puts the bytes in byte[] members.</summary>
    public static Item Item(int size, bool nested, bool binary)
    {
        if (!nested)
        {
            return Leaf("item", size, binary);
        }

        int leaf = Math.Max(1, size / 9);
        return new Item
        {
            Name = "root",
            Children = [.. Enumerable.Range(0, 3).Select(i => new Item
            {
                Name = "branch" + i.ToString(CultureInfo.InvariantCulture),
                Children = [.. Enumerable.Range(0, 3).Select(j => Leaf("leaf" + j.ToString(CultureInfo.InvariantCulture), leaf, binary))],
            })],
        };
    }

    public static RefItem RefItem(Item item) => new()
    {
        Name = item.Name,
        Text = item.Text,
        Data = item.Data,
        Children = item.Children?.Select(RefItem).ToArray(),
    };

    /// <summary>The DataSet of a nominal size, built once per size (the service's GetDataSet and the clients' payloads).</summary>
    public static DataSet DataSet(int size) => DataSets.GetOrAdd(size, static s =>
    {
        var set = new DataSet("Latency") { Locale = CultureInfo.InvariantCulture };
        DataTable table = set.Tables.Add("Rows");
        table.Locale = CultureInfo.InvariantCulture;
        table.Columns.Add("Id", typeof(int));
        table.Columns.Add("Amount", typeof(double));
        table.Columns.Add("Note", typeof(string));
        int rows = DataSetRows(s);
        int note = rows == 1 ? Math.Clamp(s - 12, 0, RowBytes - 12) : RowBytes - 12;
        string notes = Text(note + 26);
        for (int i = 0; i < rows; i++)
        {
            table.Rows.Add(i, i * 1.25, notes.Substring(i % 26, note));
        }

        set.AcceptChanges();
        return set;
    });

    public static int DataSetRows(int size) => Math.Max(1, size / RowBytes);

    public static int Measure(byte[] data) => data.Length;

    public static int Measure(string text) => text.Length;

    public static int Measure(Item item) => (item.Text?.Length ?? 0) + (item.Data?.Length ?? 0) + (item.Children?.Sum(Measure) ?? 0);

    public static int Measure(RefItem item) => (item.Text?.Length ?? 0) + (item.Data?.Length ?? 0) + (item.Children?.Sum(Measure) ?? 0);

    public static int Measure(DataSet data) => data.Tables.Count == 1 ? data.Tables[0].Rows.Count : -1;

    /// <summary>What the service's two-way reply must be for a payload of <paramref name="data"/> at <paramref name="size"/>.</summary>
    public static int Expected(DataKind data, int size) => data switch
    {
        DataKind.DataSet => DataSetRows(size),
        DataKind.NestedText or DataKind.NestedBinary => Math.Max(1, size / 9) * 9,
        _ => size,
    };

    /// <summary>A checksum of every value of the DataSet (FNV-1a over ids, amounts' bits and notes), for the soak's content check.</summary>
    public static ulong Checksum(DataSet data)
    {
        ulong hash = 14695981039346656037;
        void Mix(long value)
        {
            hash = (hash ^ (ulong)value) * 1099511628211;
        }

        foreach (DataTable table in data.Tables)
        {
            foreach (DataRow row in table.Rows)
            {
                Mix((int)row["Id"]);
                Mix(BitConverter.DoubleToInt64Bits((double)row["Amount"]));
                foreach (char c in (string)row["Note"])
                {
                    Mix(c);
                }
            }
        }

        return hash;
    }

    private static Item Leaf(string name, int size, bool binary) =>
        binary ? new Item { Name = name, Data = Bytes(size) } : new Item { Name = name, Text = Text(size) };

    /// <summary>The stream a one-way Stream call sends: the signal id, then the payload.</summary>
    public static MemoryStream SignalStream(int signal, byte[] payload)
    {
        var stream = new MemoryStream(payload.Length + 4);
        stream.Write(BitConverter.GetBytes(signal));
        stream.Write(payload);
        stream.Position = 0;
        return stream;
    }

    /// <summary>Reads a stream to its end, returning how many bytes it held (the signal prefix of a one-way call apart).</summary>
    public static (int Signal, int Length) Drain(Stream stream, bool signalled)
    {
        byte[] buffer = new byte[81920];
        int signal = 0, total = 0, read;
        if (signalled)
        {
            Span<byte> id = stackalloc byte[4];
            stream.ReadExactly(id);
            signal = BitConverter.ToInt32(id);
        }

        while ((read = stream.Read(buffer, 0, buffer.Length)) > 0)
        {
            total += read;
        }

        return (signal, total);
    }

    /// <summary>Text used in a message when a reply does not match.</summary>
    public static string Mismatch(string what, long expected, long actual) =>
        new StringBuilder().Append(what).Append(": expected ").Append(expected.ToString(CultureInfo.InvariantCulture))
            .Append(", the service measured ").Append(actual.ToString(CultureInfo.InvariantCulture)).ToString();
}
