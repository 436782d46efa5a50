using System.Collections.Frozen;
using Surrogate.Columns;

namespace Surrogate.Schema;

/// <summary>
/// Checks a column or display expression from a payload before the DataSet expression parser sees it: nesting is
/// capped, and every <c>Convert(value, 'TypeName')</c> must name a type of the closed table (the parser resolves that
/// name with Type.GetType, so 'System.Diagnostics.Process' would otherwise load arbitrary types).
/// </summary>
/// <remarks>
/// The text is split into tokens the way DataSet's expression lexer splits it (<see cref="ExpressionLexer"/>), because
/// a quote inside a name or date must not hide a call.
/// As a second line of defence every <c>convert(</c> in the raw text, quoted or not, must be a call checked here.
/// </remarks>
internal static class ExpressionGuard
{
    private const int MaxDepth = 64;

    private static readonly FrozenSet<string> AllowedTypeNames = ColumnCodecs.BuiltInTypes
        .Where(t => t != typeof(object))
        .Select(t => t.FullName!)
        .ToFrozenSet(StringComparer.Ordinal);

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
            var token = ExpressionLexer.Scan(text, ref i, out var isConvert);
            if (expect == Expect.TypeName && token != ExpressionToken.String)
            {
                Throw.Invalid("An expression's Convert() names its type with something other than a string literal.");
            }

            if (expect == Expect.CloseOfConvert && token != ExpressionToken.Close)
            {
                Throw.Invalid("An expression's Convert() has more than a value and a type name.");
            }

            switch (token)
            {
                case ExpressionToken.String when expect == Expect.TypeName:
                    CheckTypeName(text[(start + 1)..(i - 1)].Replace("''", "'", StringComparison.Ordinal), options);
                    expect = Expect.CloseOfConvert;
                    break;
                case ExpressionToken.Open:
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
                case ExpressionToken.Close:
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
                case ExpressionToken.Comma when converts.Count > 0 && converts.Peek() == depth:
                    expect = Expect.TypeName;
                    break;
            }

            convertNameAt = isConvert ? (text[start] is '[' or '`' ? -1 : start) : -2;
        }

        return checkedCalls;
    }

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
