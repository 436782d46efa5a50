using System.Data;
using System.Globalization;
using Surrogate.Schema;

namespace Surrogate.Build;

/// <summary>
/// Puts the payload's expression columns in an order where each comes after every expression column it reads.
/// Setting an expression makes DataSet re-evaluate, over every row, each expression already set that reads the
/// column, and in turn those that read them: set in the wrong order, a chain of n expressions costs n² passes (a
/// 120 KB payload holding a chain of 4,000 kept a reader busy for ten minutes). In this order each is evaluated once.
/// </summary>
/// <remarks>
/// Names resolve as DataSet's binder resolves them: a bare or quoted name is a column of the expression's own table
/// (exact match first, else a case-insensitive match in the table's locale), <c>Parent[(relation)].name</c> and
/// <c>Child[(relation)].name</c> a column of a related table, a name followed by "(" a function. A name that could
/// mean several columns depends on all of them: a wrong extra dependency costs nothing but order.
/// </remarks>
internal sealed class ExpressionOrder
{
    private static readonly HashSet<string> Keywords = new(StringComparer.OrdinalIgnoreCase)
    {
        "and", "between", "false", "in", "is", "like", "not", "null", "or", "true",
    };

    private readonly Dictionary<DataTable, (Dictionary<string, DataColumn> Exact, Dictionary<string, List<DataColumn>> Folded)> _names = [];
    private readonly List<(DataColumn Column, string Expression)> _expressions;
    private readonly Dictionary<DataColumn, int> _index = new(ReferenceEqualityComparer.Instance);
    private readonly List<(ExpressionToken Kind, int Start, int End)> _tokens = [];

    private ExpressionOrder(List<(DataColumn Column, string Expression)> expressions)
    {
        _expressions = expressions;
        for (var i = 0; i < expressions.Count; i++)
        {
            _index[expressions[i].Column] = i;
        }
    }

    /// <summary>True when the expression reads rows of other tables (Parent or Child references, aggregates over children).</summary>
    public static bool ReadsRelatedRows(string expression)
    {
        for (var i = 0; i < expression.Length;)
        {
            if (expression[i] <= ' ')
            {
                i++;
                continue;
            }

            var start = i;
            if (ExpressionLexer.Scan(expression, ref i, out _) == ExpressionToken.Name && IsRelationKeyword(expression, start, i))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The expressions (column, text) in an order that sets every column after those it reads.</summary>
    public static List<(DataColumn Column, string Expression)> Sort(List<(DataColumn Column, string Expression)> expressions)
    {
        if (expressions.Count < 2)
        {
            return expressions;
        }

        var order = new ExpressionOrder(expressions);
        var reads = new List<int>[expressions.Count];
        for (var i = 0; i < expressions.Count; i++)
        {
            reads[i] = order.Reads(expressions[i].Column, expressions[i].Expression);
        }

        return order.DependenciesFirst(reads);
    }

    // Depth-first, dependencies before dependents, with an explicit stack (a chain may be thousands long). An edge back
    // to a column still being visited (a cycle, which DataSet itself refuses) is ignored.
    private List<(DataColumn Column, string Expression)> DependenciesFirst(List<int>[] reads)
    {
        var sorted = new List<(DataColumn, string)>(_expressions.Count);
        var state = new byte[_expressions.Count]; // 0 new, 1 in progress, 2 done
        var stack = new Stack<(int Node, int Next)>();
        for (var root = 0; root < _expressions.Count; root++)
        {
            if (state[root] != 0)
            {
                continue;
            }

            state[root] = 1;
            stack.Push((root, 0));
            while (stack.Count > 0)
            {
                var (node, next) = stack.Pop();
                if (next < reads[node].Count)
                {
                    stack.Push((node, next + 1));
                    var dependency = reads[node][next];
                    if (state[dependency] == 0)
                    {
                        state[dependency] = 1;
                        stack.Push((dependency, 0));
                    }

                    continue;
                }

                state[node] = 2;
                sorted.Add(_expressions[node]);
            }
        }

        return sorted;
    }

    /// <summary>The indexes of the expressions (in this plan) that <paramref name="expression"/> reads.</summary>
    private List<int> Reads(DataColumn column, string expression)
    {
        var reads = new List<int>();
        Tokenize(expression);
        var table = column.Table!;
        for (var k = 0; k < _tokens.Count; k++)
        {
            var (kind, start, end) = _tokens[k];
            if (kind != ExpressionToken.Name)
            {
                continue;
            }

            if (IsRelationKeyword(expression, start, end))
            {
                k = RelatedColumn(expression, table, k, reads);
                continue;
            }

            var name = ExpressionLexer.NameOf(expression, start, end, out var quoted);
            var isFunction = k + 1 < _tokens.Count && _tokens[k + 1].Kind == ExpressionToken.Open;
            if (!isFunction && (quoted || !Keywords.Contains(name)))
            {
                AddColumns(table, name, reads);
            }
        }

        return reads;
    }

    // Parent.name, Parent(relation).name, Child.name, Child(relation).name; returns the last token used.
    private int RelatedColumn(string expression, DataTable table, int k, List<int> reads)
    {
        var parent = expression[_tokens[k].Start] is 'p' or 'P';
        string? relationName = null;
        var at = k + 1;
        if (at + 2 < _tokens.Count && _tokens[at].Kind == ExpressionToken.Open && _tokens[at + 1].Kind == ExpressionToken.Name && _tokens[at + 2].Kind == ExpressionToken.Close)
        {
            relationName = Name(expression, at + 1);
            at += 3;
        }

        if (at + 1 >= _tokens.Count || expression[_tokens[at].Start] != '.' || _tokens[at + 1].Kind != ExpressionToken.Name)
        {
            return k;
        }

        var columnName = Name(expression, at + 1);
        foreach (DataRelation relation in parent ? table.ParentRelations : table.ChildRelations)
        {
            if (relationName is null || string.Equals(relation.RelationName, relationName, StringComparison.OrdinalIgnoreCase)
                || FoldedComparer(table).Equals(relation.RelationName, relationName))
            {
                AddColumns(parent ? relation.ParentTable : relation.ChildTable, columnName, reads);
            }
        }

        return at + 1;
    }

    private void AddColumns(DataTable table, string name, List<int> reads)
    {
        if (!_names.TryGetValue(table, out var names))
        {
            names = (new Dictionary<string, DataColumn>(StringComparer.Ordinal), new Dictionary<string, List<DataColumn>>(FoldedComparer(table)));
            foreach (DataColumn column in table.Columns)
            {
                names.Exact[column.ColumnName] = column;
                if (!names.Folded.TryGetValue(column.ColumnName, out var same))
                {
                    names.Folded[column.ColumnName] = same = [];
                }

                same.Add(column);
            }

            _names[table] = names;
        }

        if (names.Exact.TryGetValue(name, out var exact))
        {
            Add(exact, reads);
        }
        else if (names.Folded.TryGetValue(name, out var matches))
        {
            foreach (var match in matches)
            {
                Add(match, reads);
            }
        }
    }

    private void Add(DataColumn column, List<int> reads)
    {
        if (_index.TryGetValue(column, out var index))
        {
            reads.Add(index);
        }
    }

    private void Tokenize(string expression)
    {
        _tokens.Clear();
        for (var i = 0; i < expression.Length;)
        {
            if (expression[i] <= ' ')
            {
                i++;
                continue;
            }

            var start = i;
            var kind = ExpressionLexer.Scan(expression, ref i, out _);
            _tokens.Add((kind, start, i));
        }
    }

    private string Name(string expression, int token) =>
        ExpressionLexer.NameOf(expression, _tokens[token].Start, _tokens[token].End, out _);

    // DataSet compares names case-insensitively in the table's locale, ignoring kana type and width.
    private static StringComparer FoldedComparer(DataTable table) =>
        table.Locale.CompareInfo.GetStringComparer(CompareOptions.IgnoreCase | CompareOptions.IgnoreKanaType | CompareOptions.IgnoreWidth);

    private static bool IsRelationKeyword(string expression, int start, int end)
    {
        var word = expression.AsSpan(start, end - start);
        return word.Equals("parent", StringComparison.OrdinalIgnoreCase) || word.Equals("child", StringComparison.OrdinalIgnoreCase);
    }
}
