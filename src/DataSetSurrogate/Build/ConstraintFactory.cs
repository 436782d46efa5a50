using System.Data;
using Surrogate.Schema;

namespace Surrogate.Build;

/// <summary>
/// Adds what needs every row and table first: unique constraints (names and primary-key flag kept), then foreign
/// keys with their rules, then relations (linked to the existing constraints), then expressions and read-only flags.
/// Anything the target already declares under the same name is left as the target has it.
/// </summary>
internal static class ConstraintFactory
{
    public static void AddUniques(TableLoader loader)
    {
        foreach (var unique in loader.Model.Uniques)
        {
            var table = loader.Table;
            if (table.Constraints.Contains(unique.Name))
            {
                continue;
            }

            var constraint = new UniqueConstraint(unique.Name, loader.TargetColumns(unique.Columns), unique.IsPrimaryKey);
            ExtendedPropertiesCodec.Apply(constraint.ExtendedProperties, unique.ExtendedProperties);
            table.Constraints.Add(constraint);
        }
    }

    public static void AddForeignKeys(List<TableLoader> tables, List<ForeignKeyModel> foreignKeys)
    {
        foreach (var model in foreignKeys)
        {
            var child = Table(tables, model.ChildTable);
            var parent = Table(tables, model.ParentTable);
            if (child.Table.Constraints.Contains(model.Name))
            {
                continue;
            }

            var fk = new ForeignKeyConstraint(model.Name, parent.TargetColumns(model.ParentColumns), child.TargetColumns(model.ChildColumns))
            {
                DeleteRule = model.DeleteRule,
                UpdateRule = model.UpdateRule,
                AcceptRejectRule = model.AcceptRejectRule,
            };
            ExtendedPropertiesCodec.Apply(fk.ExtendedProperties, model.ExtendedProperties);
            child.Table.Constraints.Add(fk);
        }
    }

    public static void AddRelations(DataSet dataSet, List<TableLoader> tables, List<RelationModel> relations)
    {
        foreach (var model in relations)
        {
            if (dataSet.Relations.Contains(model.Name))
            {
                continue;
            }

            var parent = Table(tables, model.ParentTable).TargetColumns(model.ParentColumns);
            var childLoader = Table(tables, model.ChildTable);
            var relation = new DataRelation(model.Name, parent, childLoader.TargetColumns(model.ChildColumns), model.CreateConstraints);
            ExtendedPropertiesCodec.Apply(relation.ExtendedProperties, model.ExtendedProperties);
            dataSet.Relations.Add(relation);
            if (model.Nested)
            {
                relation.Nested = true;
                // A nested child that inherited its namespace now inherits the parent's; the payload's stays.
                var child = childLoader.Table;
                if (childLoader.Created && !string.Equals(child.Namespace, childLoader.Model.Namespace, StringComparison.Ordinal))
                {
                    child.Namespace = childLoader.Model.Namespace;
                }
            }
        }
    }

    /// <summary>
    /// Sets the expressions of the tables created from the payload (every expression after those it reads, see
    /// <see cref="ExpressionOrder"/>), then read-only flags and display expressions.
    /// </summary>
    public static void ApplyDeferredColumns(List<TableLoader> loaders)
    {
        var expressions = new List<(DataColumn Column, string Expression)>();
        foreach (var loader in loaders)
        {
            for (var i = 0; i < loader.Model.Columns.Count; i++)
            {
                if (loader.Model.Columns[i].Expression is { } expression)
                {
                    expressions.Add((loader.TargetColumn(i), expression));
                }
            }
        }

        foreach (var (column, expression) in ExpressionOrder.Sort(expressions))
        {
            column.Expression = expression;
        }

        foreach (var loader in loaders)
        {
            for (var i = 0; i < loader.Model.Columns.Count; i++)
            {
                var column = loader.TargetColumn(i);
                if (loader.Model.Columns[i].ReadOnly && !column.ReadOnly)
                {
                    column.ReadOnly = true;
                }
            }

            if (loader.Model.DisplayExpression.Length > 0)
            {
                loader.Table.DisplayExpression = loader.Model.DisplayExpression;
            }
        }
    }

    private static TableLoader Table(List<TableLoader> tables, int index) =>
        (uint)index < (uint)tables.Count ? tables[index] : Throw.Invalid<TableLoader>($"The payload refers to table {index}, which it does not hold.");
}
