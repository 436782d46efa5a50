using System.Data;

namespace Surrogate.Tests.Fixtures;

/// <summary>
/// A typed DataSet written the way the designer generates one: typed tables and rows, cached column fields set in
/// InitVars, a relation, and the schema built in the constructor.
/// </summary>
public sealed class OrdersTypedDataSet : DataSet
{
    public OrdersTypedDataSet()
    {
        DataSetName = "OrdersTypedDataSet";
        Namespace = "urn:fixtures:typed";
        SchemaSerializationMode = SchemaSerializationMode.IncludeSchema;
        Order = new OrderDataTable();
        Line = new LineDataTable();
        Tables.Add(Order);
        Tables.Add(Line);
        OrderLines = new DataRelation("OrderLines", Order.OrderIdColumn, Line.OrderIdColumn);
        Relations.Add(OrderLines);
    }

    public OrderDataTable Order { get; private set; }

    public LineDataTable Line { get; private set; }

    public DataRelation OrderLines { get; private set; }

    /// <summary>Re-binds the typed fields after tables were replaced (as the designer's InitVars does).</summary>
    public void InitVars()
    {
        Order = (OrderDataTable)Tables["Order"]!;
        Line = (LineDataTable)Tables["Line"]!;
        OrderLines = Relations["OrderLines"]!;
        Order.InitVars();
        Line.InitVars();
    }

    /// <summary>A small filled instance with every row state.</summary>
    public static OrdersTypedDataSet CreateSample()
    {
        var ds = new OrdersTypedDataSet();
        for (var i = 1; i <= 5; i++)
        {
            var order = ds.Order.AddOrderRow("customer " + i, new DateTime(2025, 1, i, 0, 0, 0, DateTimeKind.Unspecified));
            ds.Line.AddLineRow(order, "item " + i, i * 1.25m);
        }

        ds.AcceptChanges();
        ds.Order[0].Customer = "renamed";
        ds.Order[1].Delete();
        ds.Order.AddOrderRow("new customer", new DateTime(2025, 2, 1));
        return ds;
    }

    public sealed class OrderDataTable : TypedTableBase<OrderRow>
    {
        public OrderDataTable() : base()
        {
            TableName = "Order";
            Columns.Add(new DataColumn("OrderId", typeof(int)) { AutoIncrement = true, AutoIncrementSeed = 1, AllowDBNull = false });
            Columns.Add(new DataColumn("Customer", typeof(string)) { MaxLength = 50 });
            Columns.Add(new DataColumn("Placed", typeof(DateTime)) { DateTimeMode = DataSetDateTime.Unspecified });
            InitVars();
            PrimaryKey = [OrderIdColumn];
        }

        public DataColumn OrderIdColumn { get; private set; } = null!;

        public DataColumn CustomerColumn { get; private set; } = null!;

        public DataColumn PlacedColumn { get; private set; } = null!;

        public OrderRow this[int index] => (OrderRow)Rows[index];

        public OrderRow AddOrderRow(string customer, DateTime placed)
        {
            var row = (OrderRow)NewRow();
            row.Customer = customer;
            row.Placed = placed;
            Rows.Add(row);
            return row;
        }

        internal void InitVars()
        {
            OrderIdColumn = Columns["OrderId"]!;
            CustomerColumn = Columns["Customer"]!;
            PlacedColumn = Columns["Placed"]!;
        }

        protected override DataTable CreateInstance() => new OrderDataTable();

        protected override Type GetRowType() => typeof(OrderRow);

        protected override DataRow NewRowFromBuilder(DataRowBuilder builder) => new OrderRow(builder);
    }

    public sealed class LineDataTable : TypedTableBase<LineRow>
    {
        public LineDataTable() : base()
        {
            TableName = "Line";
            Columns.Add(new DataColumn("OrderId", typeof(int)));
            Columns.Add(new DataColumn("Item", typeof(string)));
            Columns.Add(new DataColumn("Price", typeof(decimal)));
            InitVars();
        }

        public DataColumn OrderIdColumn { get; private set; } = null!;

        public DataColumn ItemColumn { get; private set; } = null!;

        public DataColumn PriceColumn { get; private set; } = null!;

        public LineRow this[int index] => (LineRow)Rows[index];

        public LineRow AddLineRow(OrderRow order, string item, decimal price)
        {
            var row = (LineRow)NewRow();
            row[OrderIdColumn] = order.OrderId;
            row.Item = item;
            row.Price = price;
            Rows.Add(row);
            return row;
        }

        internal void InitVars()
        {
            OrderIdColumn = Columns["OrderId"]!;
            ItemColumn = Columns["Item"]!;
            PriceColumn = Columns["Price"]!;
        }

        protected override DataTable CreateInstance() => new LineDataTable();

        protected override Type GetRowType() => typeof(LineRow);

        protected override DataRow NewRowFromBuilder(DataRowBuilder builder) => new LineRow(builder);
    }

    public sealed class OrderRow : DataRow
    {
        internal OrderRow(DataRowBuilder builder) : base(builder)
        {
        }

        private OrderDataTable Typed => (OrderDataTable)Table;

        public int OrderId => (int)this[Typed.OrderIdColumn];

        public string Customer
        {
            get => (string)this[Typed.CustomerColumn];
            set => this[Typed.CustomerColumn] = value;
        }

        public DateTime Placed
        {
            get => (DateTime)this[Typed.PlacedColumn];
            set => this[Typed.PlacedColumn] = value;
        }

        public LineRow[] GetLineRows() => GetChildRows(Table.ChildRelations["OrderLines"]!).Cast<LineRow>().ToArray();
    }

    public sealed class LineRow : DataRow
    {
        internal LineRow(DataRowBuilder builder) : base(builder)
        {
        }

        private LineDataTable Typed => (LineDataTable)Table;

        public string Item
        {
            get => (string)this[Typed.ItemColumn];
            set => this[Typed.ItemColumn] = value;
        }

        public decimal Price
        {
            get => (decimal)this[Typed.PriceColumn];
            set => this[Typed.PriceColumn] = value;
        }
    }
}
