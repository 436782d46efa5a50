using System.Collections.Frozen;
using Surrogate.Columns;

namespace Surrogate.Schema;

/// <summary>
/// Checks a column or display expression from a payload before the DataSet expression parser sees it: nesting is
/// capped, and every <c>Convert(value, 'TypeName')</c> must name a type of the closed table (the parser resolves that
/// name with Type.GetType, so 'System.Diagnostics.Process' would otherwise load arbitrary types).
/// </summary>
internal static class ExpressionGuard
{
    private const int MaxDepth = 64;

    private static readonly FrozenSet<string> AllowedTypeNames = ColumnCodecs.BuiltInTypes
        .Where(t => t != typeof(object))
        .Select(t => t.FullName!)
        .ToFrozenSet(StringComparer.Ordinal);

    public static string Check(string expression, SurrogateOptions options)
    {
        var depth = 0;
        // Depth of each open Convert( call, and whether its type argument is next.
        var converts = new Stack<int>();
        var expectTypeAt = -1;
        for (var i = 0; i < expression.Length; i++)
        {
            var c = expression[i];
            if (expectTypeAt == depth && c != '\'' && !char.IsWhiteSpace(c))
            {
                Throw.Invalid("An expression's Convert() names its type with something other than a string literal.");
            }

            if (c == '\'')
            {
                var end = SkipQuoted(expression, i, '\'');
                if (expectTypeAt == depth)
                {
                    CheckTypeName(expression[(i + 1)..end].Replace("''", "'", StringComparison.Ordinal), options);
                    expectTypeAt = -1;
                }

                i = end;
            }
            else if (c == '[')
            {
                i = SkipQuoted(expression, i, ']');
            }
            else if (c == '(')
            {
                if (++depth > MaxDepth)
                {
                    Throw.Invalid($"An expression nests deeper than {MaxDepth} levels.");
                }

                if (PrecededByConvert(expression, i))
                {
                    converts.Push(depth);
                }
            }
            else if (c == ')')
            {
                if (converts.Count > 0 && converts.Peek() == depth)
                {
                    converts.Pop();
                }

                depth--;
            }
            else if (c == ',' && converts.Count > 0 && converts.Peek() == depth)
            {
                expectTypeAt = depth;
            }
        }

        return expression;
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

    private static int SkipQuoted(string text, int start, char close)
    {
        for (var i = start + 1; i < text.Length; i++)
        {
            if (text[i] == '\\' && close == ']')
            {
                i++;
            }
            else if (text[i] == close)
            {
                if (close == '\'' && i + 1 < text.Length && text[i + 1] == '\'')
                {
                    i++;
                    continue;
                }

                return i;
            }
        }

        return text.Length - 1;
    }

    private static bool PrecededByConvert(string text, int paren)
    {
        var end = paren - 1;
        while (end >= 0 && char.IsWhiteSpace(text[end]))
        {
            end--;
        }

        var start = end;
        while (start >= 0 && (char.IsLetterOrDigit(text[start]) || text[start] == '_'))
        {
            start--;
        }

        return text.AsSpan(start + 1, end - start).Equals("convert", StringComparison.OrdinalIgnoreCase);
    }
}
