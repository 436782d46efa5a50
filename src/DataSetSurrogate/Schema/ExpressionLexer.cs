namespace Surrogate.Schema;

/// <summary>The kinds of token DataSet's expression lexer produces, as far as the checks here need them.</summary>
internal enum ExpressionToken
{
    String,
    Name,
    Open,
    Close,
    Comma,
    Other,
}

/// <summary>
/// Splits expression text into tokens the way DataSet's own expression lexer does ('strings' with '' escapes, [names]
/// with \ escapes, `names` with `` escapes, #dates#, numbers), so what a check sees is what the parser will see.
/// </summary>
internal static class ExpressionLexer
{
    /// <summary>Reads one token at <paramref name="i"/> (not whitespace) as DataSet's lexer does, moving past it.</summary>
    public static ExpressionToken Scan(string text, ref int i, out bool namesConvert)
    {
        var start = i;
        namesConvert = false;
        switch (text[i])
        {
            case '\'':
                i = StringEnd(text, i);
                return ExpressionToken.String;
            case '[':
                i = NameEnd(text, i, ']', '\\');
                namesConvert = IsConvert(Unescape(text, start, i, ']', '\\'));
                return ExpressionToken.Name;
            case '`':
                i = NameEnd(text, i, '`', '`');
                namesConvert = IsConvert(Unescape(text, start, i, '`', '`'));
                return ExpressionToken.Name;
            case '#':
                i = DateEnd(text, i);
                return ExpressionToken.Other;
            case '(':
                i++;
                return ExpressionToken.Open;
            case ')':
                i++;
                return ExpressionToken.Close;
            case ',':
                i++;
                return ExpressionToken.Comma;
        }

        if (char.IsAsciiDigit(text[i]))
        {
            i = NumberEnd(text, i);
            return ExpressionToken.Other;
        }

        if (!IsNameChar(text[i]))
        {
            i++;
            return ExpressionToken.Other;
        }

        while (i < text.Length && IsNameChar(text[i]))
        {
            i++;
        }

        namesConvert = IsConvert(text.AsSpan(start, i - start));
        return ExpressionToken.Name;
    }

    /// <summary>The name a Name token from <paramref name="start"/> to <paramref name="end"/> stands for (quoted names unescaped).</summary>
    public static string NameOf(string text, int start, int end, out bool quoted)
    {
        quoted = text[start] is '[' or '`';
        return text[start] switch
        {
            '[' => Unescape(text, start, end, ']', '\\'),
            '`' => Unescape(text, start, end, '`', '`'),
            _ => text[start..end],
        };
    }

    private static int StringEnd(string text, int start)
    {
        for (var i = start + 1; i < text.Length; i++)
        {
            if (text[i] == '\'')
            {
                if (i + 1 < text.Length && text[i + 1] == '\'')
                {
                    i++;
                    continue;
                }

                return i + 1;
            }
        }

        return Throw.Invalid<int>("An expression has an unterminated string.");
    }

    private static int NameEnd(string text, int start, char close, char escape)
    {
        // As in DataSet's lexer: the character right after the opener is part of the name even if it is the closer.
        var i = start + 1;
        do
        {
            if (i + 1 < text.Length && text[i] == escape && (text[i + 1] == close || text[i + 1] == escape))
            {
                i++;
            }

            i++;
        }
        while (i < text.Length && text[i] != close);

        return i < text.Length ? i + 1 : Throw.Invalid<int>("An expression has an unterminated name.");
    }

    private static int DateEnd(string text, int start)
    {
        // As in DataSet's lexer: the character right after the opening # is part of the date even if it is a #.
        var i = start + 1;
        do
        {
            i++;
        }
        while (i < text.Length && text[i] != '#');

        return i < text.Length ? i + 1 : Throw.Invalid<int>("An expression has an unterminated date.");
    }

    private static int NumberEnd(string text, int start)
    {
        var i = Digits(text, start);
        if (i < text.Length && text[i] == '.')
        {
            i = Digits(text, i + 1);
        }

        if (i < text.Length && text[i] is 'e' or 'E')
        {
            i++;
            if (i < text.Length && text[i] is '+' or '-')
            {
                i++;
            }

            i = Digits(text, i);
        }

        return i;
    }

    private static int Digits(string text, int i)
    {
        while (i < text.Length && char.IsAsciiDigit(text[i]))
        {
            i++;
        }

        return i;
    }

    /// <summary>The name inside a quoted name token, unescaped as DataSet's NameNode does.</summary>
    public static string Unescape(string text, int start, int end, char close, char escape)
    {
        var name = new System.Text.StringBuilder(end - start);
        for (var i = start + 1; i < end - 1; i++)
        {
            if (text[i] == escape && i + 1 < end - 1 && (text[i + 1] == close || text[i + 1] == escape))
            {
                i++;
            }

            name.Append(text[i]);
        }

        return name.ToString();
    }

    // DataSet's lexer: ASCII letters and digits, '_', '$' and everything above 0x7F.
    private static bool IsNameChar(char c) => char.IsAsciiLetterOrDigit(c) || c is '_' or '$' || c > '\x7F';

    public static bool IsConvert(ReadOnlySpan<char> name) => name.Equals("convert", StringComparison.OrdinalIgnoreCase);
}
