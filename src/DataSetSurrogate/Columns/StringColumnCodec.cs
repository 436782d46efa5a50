namespace Surrogate.Columns;

// Strings travel as protobuf strings (UTF-8), plain or dictionary-coded per block. A lone surrogate has no UTF-8 form:
// it is refused when writing rather than silently replaced.
internal sealed class StringColumnCodec() : ColumnCodec(TypeTag.String, typeof(string))
{
    public override void Append(ColumnValues values, object value) => values.AddString(Checked((string)value));

    public override object Take(ColumnCursor cursor) => cursor.NextString();

    internal static string Checked(string value)
    {
        if (value.AsSpan().IndexOfAnyInRange('\uD800', '\uDFFF') >= 0)
        {
            ValidateSurrogates(value);
        }

        return value;
    }

    private static void ValidateSurrogates(string value)
    {
        for (var i = 0; i < value.Length; i++)
        {
            if (!char.IsSurrogate(value[i]))
            {
                continue;
            }

            if (char.IsHighSurrogate(value[i]) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
                continue;
            }

            Throw.Invalid($"A string holds a lone surrogate (U+{(int)value[i]:X4} at index {i}), which UTF-8 cannot carry; it is refused rather than replaced.");
        }
    }
}

// Uri keeps its original string and is rebuilt as relative-or-absolute, as the source had it.
internal sealed class UriColumnCodec() : ColumnCodec(TypeTag.Uri, typeof(Uri))
{
    public override void Append(ColumnValues values, object value) =>
        values.AddString(StringColumnCodec.Checked(((Uri)value).OriginalString));

    public override object Take(ColumnCursor cursor) => new Uri(cursor.NextString(), UriKind.RelativeOrAbsolute);
}
