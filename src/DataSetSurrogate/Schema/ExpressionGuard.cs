using System.Collections.Frozen;
using Surrogate.Columns;

namespace Surrogate.Schema;

/// <summary>
/// Checks a column or display expression from a payload before the DataSet expression parser sees it: nesting is
/// capped, and every <c>Convert(value, 'TypeName')</c> must name a type of the closed table (the parser resolves that
/// name with Type.GetType, so 'System.Diagnostics.Process' would otherwise load arbitrary types).
/// </summary>
/// <remarks>
/// The text is split into tokens the way DataSet's expression lexer splits it ('strings' with '' escapes, [names]
/// with \ escapes, `names` with `` escapes, #dates#), because a quote inside a name or date must not hide a call.
/// As a second line of defence every <c>convert(</c> in the raw text, quoted or not, must be a call checked here.
/// </remarks>
internal static class ExpressionGuard
{
    private const int MaxDepth = 64;

    private static readonly FrozenSet<string> AllowedTypeNames = ColumnCodecs.BuiltInTypes
        .Where(t => t != typeof(object))
        .Select(t => t.FullName!)
        .ToFrozenSet(StringComparer.Ordinal);

    private enum Token
    {
        String,
        Name,
        Open,
        Close,
        Comma,
        Other,
    }

    /// <summary>What the next token must be inside a Convert call.</summary>
    private enum Expect
    {
        Anything,
        TypeName,
        CloseOfConvert,
    }

    public static string Check(string expression, SurrogateOptions options)
    {
        if (expression.Contains('\0', StringComparison.Ordinal))
        {
            // The parser stops at a NUL; nothing after it may go unchecked.
            Throw.Invalid("An expression holds a NUL character.");
        }

        var checkedCalls = CheckCalls(expression, options);
        CheckEveryConvertIsACheckedCall(expression, checkedCalls);
        return expression;
    }

    /// <summary>Checks every Convert call the parser would see; returns where the unquoted "convert" names start.</summary>
    private static HashSet<int> CheckCalls(string text, SurrogateOptions options)
    {
        var checkedCalls = new HashSet<int>();
        var converts = new Stack<int>();
        var depth = 0;
        var expect = Expect.Anything;
        var convertNameAt = -2; // start of the previous token when it named Convert (-1: a quoted name)
        var i = 0;
        while (i < text.Length)
        {
            if (text[i] <= ' ')
            {
                i++;
                continue;
            }

            var start = i;
            var token = Scan(text, ref i, out var isConvert);
            if (expect == Expect.TypeName && token != Token.String)
            {
                Throw.Invalid("An expression's Convert() names its type with something other than a string literal.");
            }

            if (expect == Expect.CloseOfConvert && token != Token.Close)
            {
                Throw.Invalid("An expression's Convert() has more than a value and a type name.");
            }

            switch (token)
            {
                case Token.String when expect == Expect.TypeName:
                    CheckTypeName(text[(start + 1)..(i - 1)].Replace("''", "'", StringComparison.Ordinal), options);
                    expect = Expect.CloseOfConvert;
                    break;
                case Token.Open:
                    if (++depth > MaxDepth)
                    {
                        Throw.Invalid($"An expression nests deeper than {MaxDepth} levels.");
                    }

                    if (convertNameAt > -2)
                    {
                        converts.Push(depth);
                        checkedCalls.Add(convertNameAt);
                    }

                    break;
                case Token.Close:
                    if (converts.Count > 0 && converts.Peek() == depth)
                    {
                        if (expect != Expect.CloseOfConvert)
                        {
                            Throw.Invalid("An expression's Convert() has no type name.");
                        }

                        converts.Pop();
                        expect = Expect.Anything;
                    }

                    depth--;
                    break;
                case Token.Comma when converts.Count > 0 && converts.Peek() == depth:
                    expect = Expect.TypeName;
                    break;
            }

            convertNameAt = isConvert ? (text[start] is '[' or '`' ? -1 : start) : -2;
        }

        return checkedCalls;
    }

    /// <summary>Reads one token at <paramref name="i"/> (not whitespace) as DataSet's lexer does, moving past it.</summary>
    private static Token Scan(string text, ref int i, out bool namesConvert)
    {
        var start = i;
        namesConvert = false;
        switch (text[i])
        {
            case '\'':
                i = StringEnd(text, i);
                return Token.String;
            case '[':
                i = NameEnd(text, i, ']', '\\');
                namesConvert = IsConvert(Unescape(text, start, i, ']', '\\'));
                return Token.Name;
            case '`':
                i = NameEnd(text, i, '`', '`');
                namesConvert = IsConvert(Unescape(text, start, i, '`', '`'));
                return Token.Name;
            case '#':
                i = DateEnd(text, i);
                return Token.Other;
            case '(':
                i++;
                return Token.Open;
            case ')':
                i++;
                return Token.Close;
            case ',':
                i++;
                return Token.Comma;
        }

        if (char.IsAsciiDigit(text[i]))
        {
            i = NumberEnd(text, i);
            return Token.Other;
        }

        if (!IsNameChar(text[i]))
        {
            i++;
            return Token.Other;
        }

        while (i < text.Length && IsNameChar(text[i]))
        {
            i++;
        }

        namesConvert = IsConvert(text.AsSpan(start, i - start));
        return Token.Name;
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
    private static string Unescape(string text, int start, int end, char close, char escape)
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

    private static bool IsConvert(ReadOnlySpan<char> name) => name.Equals("convert", StringComparison.OrdinalIgnoreCase);

    private static void CheckEveryConvertIsACheckedCall(string text, HashSet<int> checkedCalls)
    {
        var from = 0;
        int at;
        while ((at = text.AsSpan(from).IndexOf("convert", StringComparison.OrdinalIgnoreCase)) >= 0)
        {
            at += from;
            var next = at + "convert".Length;
            while (next < text.Length && char.IsWhiteSpace(text[next]))
            {
                next++;
            }

            if (next < text.Length && text[next] == '(' && !checkedCalls.Contains(at))
            {
                Throw.Invalid("An expression holds 'convert(' where it is not a call whose type name could be checked.");
            }

            from = at + 1;
        }
    }

    private static void CheckTypeName(string name, SurrogateOptions options)
    {
        if (AllowedTypeNames.Contains(name.Trim()))
        {
            return;
        }

        foreach (var extra in options.ExtraColumnTypes)
        {
            if (string.Equals(extra.ClrType.FullName, name.Trim(), StringComparison.Ordinal))
            {
                return;
            }
        }

        Throw.Invalid($"An expression converts to type '{name}', which is not in the closed set of allowed types.");
    }
}
