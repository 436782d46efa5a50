using System.Data;
using System.Data.SqlTypes;

namespace Surrogate.Tests.Fixtures;

public static partial class FidelityFixtures
{
    private static DataSet SqlTypesTable()
    {
        var ds = new DataSet("Sql");
        var t = ds.Tables.Add("SqlValues");
        t.Columns.Add("Binary", typeof(SqlBinary));
        t.Columns.Add("Boolean", typeof(SqlBoolean));
        t.Columns.Add("Byte", typeof(SqlByte));
        t.Columns.Add("Bytes", typeof(SqlBytes));
        t.Columns.Add("Chars", typeof(SqlChars));
        t.Columns.Add("DateTime", typeof(SqlDateTime));
        t.Columns.Add("Decimal", typeof(SqlDecimal));
        t.Columns.Add("Double", typeof(SqlDouble));
        t.Columns.Add("Guid", typeof(SqlGuid));
        t.Columns.Add("Int16", typeof(SqlInt16));
        t.Columns.Add("Int32", typeof(SqlInt32));
        t.Columns.Add("Int64", typeof(SqlInt64));
        t.Columns.Add("Money", typeof(SqlMoney));
        t.Columns.Add("Single", typeof(SqlSingle));
        t.Columns.Add("String", typeof(SqlString));
        t.Rows.Add(new SqlBinary([1, 2, 3]), SqlBoolean.True, new SqlByte(200), new SqlBytes(new byte[] { 9, 8 }),
            new SqlChars("chars".ToCharArray()), new SqlDateTime(2001, 2, 3, 4, 5, 6, 7), SqlDecimal.Parse("12345678901234567890.123456789"),
            new SqlDouble(-0.5), new SqlGuid(new Guid("0f8fad5b-d9cb-469f-a165-70867728950e")), new SqlInt16(-3), new SqlInt32(int.MaxValue),
            new SqlInt64(long.MinValue), new SqlMoney(922337203685477.5807m), new SqlSingle(1.5f),
            new SqlString("Straße", 1031, SqlCompareOptions.IgnoreCase | SqlCompareOptions.IgnoreWidth));
        t.Rows.Add(SqlBinary.Null, SqlBoolean.Null, SqlByte.Null, SqlBytes.Null, SqlChars.Null, SqlDateTime.Null,
            SqlDecimal.Null, SqlDouble.Null, SqlGuid.Null, SqlInt16.Null, SqlInt32.Null, SqlInt64.Null, SqlMoney.Null,
            SqlSingle.Null, SqlString.Null);
        t.Rows.Add(new SqlBinary([]), SqlBoolean.False, SqlByte.MinValue, new SqlBytes(Array.Empty<byte>()), new SqlChars(Array.Empty<char>()),
            SqlDateTime.MinValue, SqlDecimal.MaxValue, SqlDouble.MaxValue, new SqlGuid(Guid.Empty), SqlInt16.MinValue, SqlInt32.MinValue,
            SqlInt64.MaxValue, SqlMoney.MinValue, SqlSingle.MinValue, new SqlString("tr", 1055, SqlCompareOptions.None));
        t.AcceptChanges();
        return ds;
    }

    private static DataSet ObjectColumn()
    {
        var ds = new DataSet("Objects");
        var t = ds.Tables.Add("Bag");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("Value", typeof(object));
        t.Rows.Add(1, 42);
        t.Rows.Add(2, "text");
        t.Rows.Add(3, new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"));
        t.Rows.Add(4, DBNull.Value);
        t.Rows.Add(5, 3.25d);
        t.Rows.Add(6, 1.50m);
        t.Rows.Add(7, new DateTime(2020, 5, 6, 7, 8, 9, DateTimeKind.Utc));
        t.Rows.Add(8, true);
        t.Rows.Add(9, 9L);
        t.AcceptChanges();
        return ds;
    }

    private static DataSet ColumnProperties()
    {
        var ds = new DataSet("ColumnProps");
        var t = ds.Tables.Add("Props");
        var id = t.Columns.Add("Id", typeof(int));
        id.AllowDBNull = false;
        id.Unique = true;
        id.Caption = "Identifier";
        var name = t.Columns.Add("Name", typeof(string));
        name.MaxLength = 40;
        name.DefaultValue = "(none)";
        name.Namespace = "urn:fixtures:columns";
        var frozen = t.Columns.Add("Frozen", typeof(decimal));
        frozen.ReadOnly = true;
        frozen.DefaultValue = 1.10m;
        var when = t.Columns.Add("When", typeof(DateTime));
        when.DefaultValue = new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Unspecified);
        t.Rows.Add(1, "one", 2.50m);
        t.Rows.Add(2, null, null, null);
        t.AcceptChanges();
        return ds;
    }

    private static DataSet ColumnMappings()
    {
        var ds = new DataSet("Mappings");
        var t = ds.Tables.Add("Mapped");
        t.Columns.Add("Element", typeof(string)).ColumnMapping = MappingType.Element;
        t.Columns.Add("Attribute", typeof(int)).ColumnMapping = MappingType.Attribute;
        var hidden = t.Columns.Add("Hidden", typeof(string));
        hidden.ColumnMapping = MappingType.Hidden;
        hidden.DefaultValue = "secret";
        t.Rows.Add("e", 1, "h");
        var simple = ds.Tables.Add("Simple");
        simple.Columns.Add("Code", typeof(string)).ColumnMapping = MappingType.Attribute;
        simple.Columns.Add("Text", typeof(string)).ColumnMapping = MappingType.SimpleContent;
        simple.Rows.Add("c1", "content one");
        simple.Rows.Add("c2", DBNull.Value);
        ds.AcceptChanges();
        return ds;
    }

    private static DataSet AutoIncrement()
    {
        var ds = new DataSet("AutoInc");
        var t = ds.Tables.Add("Keys");
        var id = t.Columns.Add("Id", typeof(long));
        id.AutoIncrement = true;
        id.AutoIncrementSeed = -1;
        id.AutoIncrementStep = -1;
        t.Columns.Add("Name", typeof(string));
        t.PrimaryKey = [id];
        t.Rows.Add(null, "a");
        t.Rows.Add(null, "b");
        t.AcceptChanges();
        t.Rows.Add(null, "c");
        t.Rows.Add(null, "d").Delete(); // Added then deleted: the counter moved past it.
        var up = ds.Tables.Add("Up");
        var upId = up.Columns.Add("Id", typeof(int));
        upId.AutoIncrement = true;
        upId.AutoIncrementSeed = 100;
        upId.AutoIncrementStep = 5;
        up.Rows.Add(new object?[] { null });
        up.Rows.Add(500);
        return ds;
    }

    private static DataSet Expressions()
    {
        var ds = new DataSet("Expressions");
        var parent = ds.Tables.Add("Parent");
        parent.Columns.Add("Id", typeof(int));
        parent.Columns.Add("Rate", typeof(decimal));
        var child = ds.Tables.Add("Child");
        child.Columns.Add("ParentId", typeof(int));
        child.Columns.Add("Qty", typeof(int));
        child.Columns.Add("Price", typeof(decimal));
        ds.Relations.Add("ParentChild", parent.Columns["Id"]!, child.Columns["ParentId"]!);
        child.Columns.Add("Line", typeof(decimal), "Qty * Price");
        child.Columns.Add("Taxed", typeof(decimal), "Qty * Price * Parent.Rate");
        child.Columns.Add("Label", typeof(string), "'#' + Convert(Qty, 'System.String')");
        parent.Columns.Add("Total", typeof(decimal), "Sum(Child.Line)");
        parent.Rows.Add(1, 1.2m);
        parent.Rows.Add(2, 1.0m);
        child.Rows.Add(1, 2, 3.50m);
        child.Rows.Add(1, 1, 10m);
        child.Rows.Add(2, 4, 0.25m);
        ds.AcceptChanges();
        child.Rows[0]["Qty"] = 3;
        return ds;
    }

    private static DataSet ConstraintsAndRelations()
    {
        var ds = new DataSet("Constraints");
        var customers = ds.Tables.Add("Customers");
        customers.Columns.Add("Region", typeof(string));
        customers.Columns.Add("Id", typeof(int));
        customers.Columns.Add("Email", typeof(string));
        customers.PrimaryKey = [customers.Columns["Region"]!, customers.Columns["Id"]!];
        customers.Constraints.Add(new UniqueConstraint("UQ_Email", customers.Columns["Email"]!));
        var orders = ds.Tables.Add("Orders");
        orders.Columns.Add("OrderId", typeof(int));
        orders.Columns.Add("Region", typeof(string));
        orders.Columns.Add("CustomerId", typeof(int));
        orders.PrimaryKey = [orders.Columns["OrderId"]!];
        var relation = new DataRelation("CustomerOrders",
            [customers.Columns["Region"]!, customers.Columns["Id"]!], [orders.Columns["Region"]!, orders.Columns["CustomerId"]!]);
        ds.Relations.Add(relation);
        relation.ChildKeyConstraint!.DeleteRule = Rule.SetNull;
        relation.ChildKeyConstraint.UpdateRule = Rule.Cascade;
        relation.ChildKeyConstraint.AcceptRejectRule = AcceptRejectRule.Cascade;
        relation.Nested = true;
        relation.ExtendedProperties["note"] = "nested";
        var notes = ds.Tables.Add("Notes");
        notes.Columns.Add("OrderId", typeof(int));
        notes.Columns.Add("Text", typeof(string));
        var fk = new ForeignKeyConstraint("FK_NoteOrder", orders.Columns["OrderId"]!, notes.Columns["OrderId"]!)
        {
            DeleteRule = Rule.None, UpdateRule = Rule.SetDefault, AcceptRejectRule = AcceptRejectRule.None,
        };
        notes.Constraints.Add(fk);
        ds.Relations.Add(new DataRelation("OrderNotesLoose", orders.Columns["OrderId"]!, notes.Columns["OrderId"]!, createConstraints: false));
        customers.Rows.Add("EU", 1, "a@example.org");
        customers.Rows.Add("US", 1, "b@example.org");
        orders.Rows.Add(10, "EU", 1);
        orders.Rows.Add(11, "US", 1);
        notes.Rows.Add(10, "fragile");
        ds.AcceptChanges();
        return ds;
    }

    private static DataSet SelfNested()
    {
        var ds = new DataSet("Tree");
        var t = ds.Tables.Add("Node");
        t.Columns.Add("Id", typeof(int));
        t.Columns.Add("ParentId", typeof(int));
        t.Columns.Add("Name", typeof(string));
        t.PrimaryKey = [t.Columns["Id"]!];
        ds.Relations.Add("NodeChildren", t.Columns["Id"]!, t.Columns["ParentId"]!).Nested = true;
        t.Rows.Add(1, DBNull.Value, "root");
        t.Rows.Add(2, 1, "child");
        t.Rows.Add(3, 2, "grandchild");
        t.Rows.Add(4, 1, "second child");
        ds.AcceptChanges();
        return ds;
    }

    private static DataSet ExtendedProperties()
    {
        var ds = new DataSet("Extended");
        ds.ExtendedProperties["owner"] = "fixtures";
        ds.ExtendedProperties["empty"] = "";
        var t = ds.Tables.Add("T");
        t.ExtendedProperties["table"] = "yes";
        var c = t.Columns.Add("C", typeof(string));
        c.ExtendedProperties["column"] = "value with \r\n newline";
        t.Rows.Add("x");
        t.AcceptChanges();
        return ds;
    }
}
