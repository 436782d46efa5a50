using System.Data;
using System.Globalization;

namespace Surrogate.Tests.Generated;

/// <summary>
/// Builds the DataSet a spec describes the way an application would: schema, relations, then rows in every state
/// with errors, then read-only flags, then EnforceConstraints (which may fail on orphan rows, leaving DataSet's own
/// row errors and EnforceConstraints=false: a state that must round-trip as well).
/// </summary>
internal static class SpecBuilder
{
    public static DataSet Build(DataSetSpec spec)
    {
        var ds = new DataSet(spec.Name)
        {
            Namespace = spec.Namespace,
            Prefix = spec.Prefix,
            CaseSensitive = spec.CaseSensitive,
            Locale = CultureInfo.GetCultureInfo(spec.Locale),
            EnforceConstraints = false,
        };
        Property(ds.ExtendedProperties, spec.Property);
        var tables = spec.Tables.Select((t, i) => AddTable(ds, t, hasParent: i == 1 && spec.Relation is not null)).ToArray();
        // Self relations first: they create the unique constraint on Id that a later relation without constraints
        // then reports as its ParentKeyConstraint, which is also the order a load recreates (constraints, then
        // relations); the other order leaves ParentKeyConstraint empty, which neither DataSet XML nor this codec keeps.
        for (var i = 0; i < tables.Length; i++)
        {
            if (spec.Tables[i].SelfNested)
            {
                ds.Relations.Add("Self_" + i, tables[i].Columns["Id"]!, tables[i].Columns["SelfId"]!).Nested = true;
            }
        }

        if (spec.Relation is { } r && tables.Length > 1)
        {
            var relation = ds.Relations.Add("Parent_Child", tables[0].Columns["Id"]!, tables[1].Columns["ParentId"]!, r.Constraints);
            relation.Nested = r.Nested && !spec.Tables[1].SelfNested;
            Property(relation.ExtendedProperties, r.Property);
            if (relation.ChildKeyConstraint is { } fk)
            {
                (fk.UpdateRule, fk.DeleteRule, fk.AcceptRejectRule) = (r.Update, r.Delete, r.AcceptReject);
            }

            tables[0].Columns.Add("Children", typeof(int), "Count(Child(Parent_Child).Id)");
        }

        for (var i = 0; i < tables.Length; i++)
        {
            AddRows(tables[i], spec.Tables[i]);
        }

        foreach (var (table, tableSpec) in tables.Zip(spec.Tables))
        {
            foreach (var column in tableSpec.Columns.Where(c => c.ReadOnly))
            {
                table.Columns[column.Name]!.ReadOnly = true;
            }
        }

        try
        {
            ds.EnforceConstraints = spec.Enforce;
        }
        catch (ConstraintException)
        {
            // Orphan or duplicate rows: DataSet marked them with row errors and left EnforceConstraints off.
        }

        return ds;
    }

    private static DataTable AddTable(DataSet ds, TableSpec spec, bool hasParent)
    {
        var table = new DataTable(spec.Name, spec.Namespace ?? ds.Namespace);
        if (spec.Prefix is not null)
        {
            table.Prefix = spec.Prefix;
        }

        ds.Tables.Add(table);
        if (spec.CaseSensitive is bool caseSensitive)
        {
            table.CaseSensitive = caseSensitive;
        }

        if (spec.Locale is not null)
        {
            table.Locale = CultureInfo.GetCultureInfo(spec.Locale);
        }

        var id = table.Columns.Add("Id", typeof(int));
        id.AllowDBNull = false;
        if (spec.PrimaryKey)
        {
            table.PrimaryKey = [id];
        }

        if (hasParent)
        {
            table.Columns.Add("ParentId", typeof(int));
        }

        if (spec.SelfNested)
        {
            table.Columns.Add("SelfId", typeof(int));
        }

        if (spec.AutoIncrement)
        {
            var seq = table.Columns.Add("Seq", typeof(long));
            (seq.AutoIncrement, seq.AutoIncrementSeed, seq.AutoIncrementStep) = (true, spec.Seed, spec.Step);
            table.Constraints.Add(new UniqueConstraint("Seq_Unique", seq));
        }

        foreach (var c in spec.Columns)
        {
            var column = table.Columns.Add(c.Name, c.Type);
            (column.AllowDBNull, column.ColumnMapping, column.DateTimeMode) = (c.AllowNull, c.Mapping, c.Mode);
            if (c.Default is not null)
            {
                column.DefaultValue = c.Default;
            }

            column.MaxLength = c.MaxLength;
            if (c.Caption is not null)
            {
                column.Caption = c.Caption;
            }

            if (c.Namespace is not null)
            {
                column.Namespace = c.Namespace;
            }

            Property(column.ExtendedProperties, c.Property);
        }

        if (spec.Expression)
        {
            table.Columns.Add("Twice", typeof(int), "Id * 2");
        }

        return table;
    }

    private static void AddRows(DataTable table, TableSpec spec)
    {
        var first = table.Columns.IndexOf(spec.Columns.FirstOrDefault()?.Name);
        for (var i = 0; i < spec.Rows.Length; i++)
        {
            var rowSpec = spec.Rows[i];
            var values = new object?[table.Columns.Count]; // null: computed, AutoIncrement or default
            values[0] = i;
            if (table.Columns.Contains("ParentId"))
            {
                values[table.Columns["ParentId"]!.Ordinal] = rowSpec.Parent >= 0 ? rowSpec.Parent : DBNull.Value;
            }

            if (table.Columns.Contains("SelfId"))
            {
                values[table.Columns["SelfId"]!.Ordinal] = rowSpec.Parent >= 0 && rowSpec.Parent < i ? rowSpec.Parent : DBNull.Value;
            }

            if (first >= 0)
            {
                rowSpec.Original.CopyTo(values, first);
            }

            var row = table.Rows.Add(values);
            if (rowSpec.State != DataRowState.Added)
            {
                row.AcceptChanges();
            }

            if (rowSpec.State == DataRowState.Modified)
            {
                for (var c = 0; c < spec.Columns.Length; c++)
                {
                    row[first + c] = rowSpec.Current[c];
                }

                if (row.RowState == DataRowState.Unchanged)
                {
                    row.SetModified(); // no column to change: Modified all the same
                }
            }

            if (rowSpec.RowError is not null)
            {
                row.RowError = rowSpec.RowError;
            }

            if (rowSpec.ErrorColumn >= 0)
            {
                row.SetColumnError(first + rowSpec.ErrorColumn, "column error " + rowSpec.ErrorColumn);
            }

            if (rowSpec.State == DataRowState.Deleted)
            {
                row.Delete();
            }
        }
    }

    private static void Property(PropertyCollection properties, string? value)
    {
        if (value is not null)
        {
            properties["generated"] = value;
            properties["number"] = 42;
        }
    }
}
